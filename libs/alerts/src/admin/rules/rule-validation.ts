import Big from 'big.js';
import { InvalidInputError } from '#errors';
import { EVENT_TYPES, type EventType, type RuleFilters } from '../../alert.types.js';

export const MAX_RULE_ADDRESSES = 1000;
export const MAX_RULE_MARKETS = 100;
export const MIN_LARGE_ORDER_USD = '50000';

/**
 * What a rule's addresses may be, by type: required (1..1000), optional (0..1000) or not accepted. The
 * api's description of `addresses` is written from it, so the two cannot disagree.
 */
export const RULE_ADDRESSES: Record<EventType, 'required' | 'optional' | 'not used' | 'not supported'> = {
  position_activity: 'required',
  twap_execution: 'required',
  twap_lifecycle: 'optional',
  ledger_update: 'optional',
  liquidation: 'optional',
  price_crossing: 'not used',
  large_market_order: 'not supported',
  state_updated: 'not used',
};

/**
 * Types whose rule, without addresses, hears every wallet on the exchange: what a plan's
 * `exchangeWideRules` counts. A price rule watches one market and `state_updated` the service's own
 * clock, so neither is counted.
 */
export const EXCHANGE_WIDE_TYPES: readonly EventType[] = (Object.keys(RULE_ADDRESSES) as EventType[]).filter(
  (t) => RULE_ADDRESSES[t] === 'optional' || RULE_ADDRESSES[t] === 'not supported',
);

/** The filter keys each type accepts. */
const FILTER_KEYS: Record<EventType, readonly string[]> = {
  position_activity: ['coin'],
  twap_execution: ['coin'],
  twap_lifecycle: ['coin'],
  ledger_update: ['types', 'amount'],
  liquidation: ['markets', 'thresholdUsd', 'side'],
  price_crossing: ['market', 'threshold', 'direction'],
  large_market_order: ['markets', 'thresholdUsd', 'direction'],
  state_updated: [],
};

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A non-negative decimal written plainly: digits, optionally a point and digits (no sign, no exponent). */
const DECIMAL = /^\d{1,30}(\.\d{1,30})?$/;
// Control characters are what a market name must not hold.
// eslint-disable-next-line no-control-regex
const MARKET = /^[^\u0000-\u001f\u007f]{1,64}$/;
const AMOUNT_OPS = ['eq', 'gte', 'gt', 'lte', 'lt'] as const;

export interface ValidRule {
  eventType: EventType;
  addresses: string[];
  filters: RuleFilters;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function validateEventType(value: unknown): EventType {
  if (typeof value !== 'string' || !(EVENT_TYPES as readonly string[]).includes(value)) {
    throw new InvalidInputError('eventType', `eventType must be one of ${EVENT_TYPES.join(', ')}`);
  }
  return value as EventType;
}

function validateAddresses(type: EventType, value: unknown): string[] {
  const rule = RULE_ADDRESSES[type];
  if (value === undefined || value === null) {
    if (rule === 'required')
      throw new InvalidInputError('addresses', `addresses are required for ${type}: 1 to ${MAX_RULE_ADDRESSES} wallet addresses`);
    return [];
  }
  if (!Array.isArray(value)) throw new InvalidInputError('addresses', 'addresses must be an array of wallet addresses');
  if ((rule === 'not used' || rule === 'not supported') && value.length > 0)
    throw new InvalidInputError('addresses', `addresses are ${rule} by ${type}`);
  if (rule === 'required' && value.length === 0)
    throw new InvalidInputError('addresses', `addresses are required for ${type}: 1 to ${MAX_RULE_ADDRESSES} wallet addresses`);
  if (value.length > MAX_RULE_ADDRESSES)
    throw new InvalidInputError('addresses', `at most ${MAX_RULE_ADDRESSES} addresses, got ${value.length}`);
  const seen = new Set<string>();
  return value.map((a, i) => {
    if (typeof a !== 'string' || !ADDRESS.test(a)) throw new InvalidInputError(`addresses[${i}]`, 'must be 0x followed by 40 hex digits');
    const lower = a.toLowerCase();
    if (seen.has(lower)) throw new InvalidInputError(`addresses[${i}]`, `${lower} is listed twice`);
    seen.add(lower);
    return lower;
  });
}

function marketList(field: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) throw new InvalidInputError(field, `${field} must be a non-empty array of market names`);
  if (value.length > MAX_RULE_MARKETS) throw new InvalidInputError(field, `at most ${MAX_RULE_MARKETS} markets, got ${value.length}`);
  const seen = new Set<string>();
  for (const [i, m] of value.entries()) {
    if (typeof m !== 'string' || !MARKET.test(m))
      throw new InvalidInputError(`${field}[${i}]`, 'must be a market name of 1 to 64 characters');
    if (seen.has(m)) throw new InvalidInputError(`${field}[${i}]`, `${m} is listed twice`);
    seen.add(m);
  }
  return value as string[];
}

function decimal(field: string, value: unknown): string {
  if (typeof value !== 'string' || !DECIMAL.test(value))
    throw new InvalidInputError(field, `${field} must be a decimal string such as "1000.5" (no sign, no exponent)`);
  return value;
}

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value))
    throw new InvalidInputError(field, `${field} must be one of ${allowed.join(', ')}`);
  return value as T;
}

function validateFilters(type: EventType, value: unknown): RuleFilters {
  if (value === undefined || value === null) value = {};
  if (!isObject(value)) throw new InvalidInputError('filters', 'filters must be an object');
  const allowed = FILTER_KEYS[type];
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      throw new InvalidInputError(
        `filters.${key}`,
        allowed.length ? `${type} accepts only the filters ${allowed.join(', ')}` : `${type} takes no filters`,
      );
  }
  const f: RuleFilters = {};
  const v = value;
  if (v.coin !== undefined) f.coin = marketList('filters.coin', v.coin);
  if (v.markets !== undefined) f.markets = marketList('filters.markets', v.markets);
  if (v.types !== undefined) {
    if (!Array.isArray(v.types) || v.types.length === 0)
      throw new InvalidInputError('filters.types', 'filters.types must be a non-empty array of deposit and/or withdraw');
    v.types.forEach((t, i) => oneOf(`filters.types[${i}]`, t, ['deposit', 'withdraw'] as const));
    if (new Set(v.types).size !== v.types.length) throw new InvalidInputError('filters.types', 'filters.types must not repeat a type');
    f.types = v.types as Array<'deposit' | 'withdraw'>;
  }
  if (v.amount !== undefined) {
    if (!isObject(v.amount))
      throw new InvalidInputError('filters.amount', 'filters.amount must be an object with one or more of eq, gte, gt, lte, lt');
    const keys = Object.keys(v.amount);
    const unknown = keys.find((k) => !(AMOUNT_OPS as readonly string[]).includes(k));
    if (unknown !== undefined) throw new InvalidInputError(`filters.amount.${unknown}`, 'filters.amount accepts only eq, gte, gt, lte, lt');
    if (keys.length === 0) throw new InvalidInputError('filters.amount', 'filters.amount needs one or more of eq, gte, gt, lte, lt');
    f.amount = {};
    for (const op of AMOUNT_OPS) if (v.amount[op] !== undefined) f.amount[op] = decimal(`filters.amount.${op}`, v.amount[op]);
  }
  switch (type) {
    case 'price_crossing':
      if (typeof v.market !== 'string' || !MARKET.test(v.market))
        throw new InvalidInputError('filters.market', 'filters.market is required: a market name of 1 to 64 characters');
      f.market = v.market;
      f.threshold = decimal('filters.threshold', v.threshold);
      if (new Big(f.threshold).lte(0)) throw new InvalidInputError('filters.threshold', 'filters.threshold must be greater than 0');
      f.direction = v.direction === undefined ? 'both' : oneOf('filters.direction', v.direction, ['above', 'below', 'both'] as const);
      break;
    case 'large_market_order':
      if (v.thresholdUsd === undefined)
        throw new InvalidInputError(
          'filters.thresholdUsd',
          `filters.thresholdUsd is required: a decimal string of at least ${MIN_LARGE_ORDER_USD}`,
        );
      f.thresholdUsd = decimal('filters.thresholdUsd', v.thresholdUsd);
      if (new Big(f.thresholdUsd).lt(MIN_LARGE_ORDER_USD))
        throw new InvalidInputError('filters.thresholdUsd', `filters.thresholdUsd must be at least ${MIN_LARGE_ORDER_USD}`);
      f.direction = v.direction === undefined ? 'both' : oneOf('filters.direction', v.direction, ['buy', 'sell', 'both'] as const);
      break;
    case 'liquidation':
      if (v.thresholdUsd !== undefined) {
        f.thresholdUsd = decimal('filters.thresholdUsd', v.thresholdUsd);
        if (new Big(f.thresholdUsd).lte(0))
          throw new InvalidInputError('filters.thresholdUsd', 'filters.thresholdUsd must be greater than 0');
      }
      f.side = v.side === undefined ? 'both' : oneOf('filters.side', v.side, ['long', 'short', 'both'] as const);
      break;
    case 'position_activity':
    case 'twap_execution':
    case 'twap_lifecycle':
    case 'ledger_update':
    case 'state_updated':
      // Their filters are optional and checked above key by key; none has a default.
      break;
    default:
      // A new event type does not compile until it is given a case.
      throw new Error(`no filter checks for ${type satisfies never}`);
  }
  return f;
}

/**
 * Checks a rule against the contract's limits, and returns it as stored: addresses lower-case, filter
 * defaults filled in (`direction` and `side` both). Throws an InvalidInputError naming the first bad field.
 */
export function validateRule(input: { eventType: unknown; addresses?: unknown; filters?: unknown }): ValidRule {
  const eventType = validateEventType(input.eventType);
  return { eventType, addresses: validateAddresses(eventType, input.addresses), filters: validateFilters(eventType, input.filters) };
}
