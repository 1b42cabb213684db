import Big from 'big.js';
import { InvalidInputError } from '#errors';
import { STREAM_CHANNELS, type StreamChannel, type StreamEvent } from './stream-event.js';

export const MAX_SUBSCRIPTION_ADDRESSES = 1_000;

/** A subscription's filters, AND-ed; values within a list OR-ed; an absent filter passes everything. */
export interface StreamFilters {
  coin?: ReadonlySet<string>;
  address?: ReadonlySet<string>;
  side?: string;
  minNotionalUsd?: Big;
}

export interface StreamSubscription {
  channel: StreamChannel;
  filters: StreamFilters;
  /** The subscription as the server understood it, echoed in the acknowledgement. */
  normalized: Record<string, unknown>;
}

const SIDES: Record<StreamChannel, readonly string[] | null> = { fills: ['B', 'A'], liquidations: ['long', 'short'], ledger: null };
const COINS: Record<StreamChannel, boolean> = { fills: true, liquidations: true, ledger: false };
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const DECIMAL = /^\d+(\.\d+)?$/;
const KNOWN = new Set(['type', 'coin', 'address', 'side', 'minNotionalUsd']);

const fail = (field: string, message: string): never => {
  throw new InvalidInputError(`subscription.${field}`, message);
};

/** The subscription of a `subscribe` message, or an InvalidInputError naming the field that is wrong. */
export function parseSubscription(raw: unknown): StreamSubscription {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new InvalidInputError('subscription', 'subscription must be an object with a "type"');
  }
  const body = raw as Record<string, unknown>;
  const channel = body.type;
  if (typeof channel !== 'string' || !(STREAM_CHANNELS as readonly string[]).includes(channel)) {
    return fail('type', `type must be one of ${STREAM_CHANNELS.join(', ')}`);
  }
  const type = channel as StreamChannel;
  for (const key of Object.keys(body)) if (!KNOWN.has(key)) fail(key, `unknown filter "${key}"`);
  const filters: StreamFilters = {};
  const normalized: Record<string, unknown> = { type };
  if (body.coin !== undefined) {
    if (!COINS[type]) fail('coin', `${type} events have no coin`);
    const coins = stringList('coin', body.coin, 100);
    filters.coin = new Set(coins);
    normalized.coin = coins;
  }
  if (body.address !== undefined) {
    const addresses = stringList('address', body.address, MAX_SUBSCRIPTION_ADDRESSES).map((a) =>
      ADDRESS.test(a) ? a.toLowerCase() : fail('address', `"${a}" is not a 0x-prefixed 40-hex-digit address`),
    );
    filters.address = new Set(addresses);
    normalized.address = [...filters.address];
  }
  if (body.side !== undefined) {
    const sides = SIDES[type];
    if (!sides) fail('side', `${type} events have no side`);
    if (typeof body.side !== 'string' || !sides!.includes(body.side)) fail('side', `side must be one of ${sides!.join(', ')}`);
    filters.side = body.side as string;
    normalized.side = body.side;
  }
  if (body.minNotionalUsd !== undefined) {
    const text = typeof body.minNotionalUsd === 'number' ? String(body.minNotionalUsd) : body.minNotionalUsd;
    if (typeof text !== 'string' || !DECIMAL.test(text)) fail('minNotionalUsd', 'minNotionalUsd must be a non-negative decimal');
    filters.minNotionalUsd = new Big(text as string);
    normalized.minNotionalUsd = filters.minNotionalUsd.toFixed();
  }
  return { channel: type, filters, normalized };
}

function stringList(field: string, value: unknown, max: number): string[] {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || !list.every((v) => typeof v === 'string' && v.length > 0)) {
    return fail(field, `${field} must be a non-empty string or list of strings`);
  }
  if (list.length > max) fail(field, `${field} takes at most ${max} values, got ${list.length}`);
  return [...new Set(list as string[])];
}

/** Whether an event of the subscription's channel passes its filters. */
export function passes(filters: StreamFilters, event: StreamEvent, notional: () => Big): boolean {
  if (filters.coin && (event.coin === null || !filters.coin.has(event.coin))) return false;
  if (filters.address && !event.addresses.some((a) => filters.address!.has(a))) return false;
  if (filters.side && event.side !== filters.side) return false;
  if (filters.minNotionalUsd && notional().lt(filters.minNotionalUsd)) return false;
  return true;
}
