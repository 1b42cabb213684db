import type { AlertRule, EventType, RuleFilters } from '#alerts';
import { nodeTime, parseBlockLine, type NodeBlock } from '#exchange';
import { address } from './fill-blocks.factory.js';

// hl-node blocks for the alert matcher's specs, built by hand and parsed by the real parser, and the rules
// they are matched against. The defaults are the ones those specs' expected values are written for.

/** The blocks' time when a test gives none. */
export const ALERT_T0 = Date.UTC(2026, 10, 25, 12, 0, 0);

/** hl-node's time text of an epoch ms, without sub-millisecond digits. */
export const alertNodeTime = (ms: number): string => nodeTime(ms, 0);

function parse(stream: string, block: object): NodeBlock {
  const r = parseBlockLine(stream, JSON.stringify(block), {});
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value as NodeBlock;
}

/** A fill as a test states it: what it cares about, the rest defaulted by `alertFillsBlock`. */
export interface AlertTestFill {
  coin: string;
  px: string;
  sz: string;
  side?: 'A' | 'B';
  time?: number;
  tid: number;
  oid?: number;
  startPosition?: string;
  dir?: string;
  hash?: string;
  crossed?: boolean;
  twapId?: number | null;
  liquidatedUser?: string;
}

function wire(f: AlertTestFill) {
  return {
    coin: f.coin,
    px: f.px,
    sz: f.sz,
    side: f.side ?? 'B',
    time: f.time ?? ALERT_T0,
    startPosition: f.startPosition ?? '0',
    dir: f.dir ?? 'Open Long',
    closedPnl: '0.0',
    hash: f.hash ?? `0x${f.tid.toString(16).padStart(64, '0')}`,
    oid: f.oid ?? f.tid,
    crossed: f.crossed ?? true,
    fee: '0.01',
    tid: f.tid,
    cloid: null,
    feeToken: 'USDC',
    twapId: f.twapId ?? null,
    ...(f.liquidatedUser ? { liquidation: { liquidatedUser: f.liquidatedUser, markPx: f.px, method: 'market' } } : {}),
  };
}

/** A fills block at `time`, received 5 ms later. */
export const alertFillsBlock = (block: number, events: Array<[string, AlertTestFill]>, time = ALERT_T0): NodeBlock =>
  parse('node_fills_by_block', {
    local_time: alertNodeTime(time + 5),
    block_time: alertNodeTime(time),
    block_number: block,
    events: events.map(([a, f]) => [a, wire(f)]),
  });

export const alertLedgerBlock = (
  block: number,
  events: Array<{ users: string[]; delta: object; hash?: string; time?: number }>,
): NodeBlock =>
  parse('misc_events_by_block', {
    local_time: alertNodeTime(ALERT_T0),
    block_time: alertNodeTime(ALERT_T0),
    block_number: block,
    events: events.map((e) => ({
      time: alertNodeTime(e.time ?? ALERT_T0),
      hash: e.hash ?? `0x${'ab'.repeat(32)}`,
      inner: { LedgerUpdate: { users: e.users, delta: e.delta } },
    })),
  });

/** TWAP status events of one TWAP shape (HYPE, sell, 108.36 over 10 minutes, started a minute before ALERT_T0). */
export const alertTwapsBlock = (
  block: number,
  events: Array<{ twapId: number; status: unknown; coin?: string; user?: string; time?: number }>,
): NodeBlock =>
  parse('node_twap_statuses_by_block', {
    local_time: alertNodeTime(ALERT_T0),
    block_time: alertNodeTime(ALERT_T0),
    block_number: block,
    events: events.map((e) => ({
      time: alertNodeTime(e.time ?? ALERT_T0),
      twap_id: e.twapId,
      state: {
        coin: e.coin ?? 'HYPE',
        user: e.user ?? address(1),
        side: 'A',
        sz: '108.36',
        executedSz: '10.0',
        executedNtl: '400.5',
        minutes: 10,
        reduceOnly: false,
        randomize: true,
        timestamp: ALERT_T0 - 60_000,
      },
      status: e.status,
    })),
  });

let nextRule = 1;

/** An active rule of consumer 7 on endpoint 9, created a second before ALERT_T0 unless given; ids count up per test file. */
export function alertRule(
  eventType: EventType,
  addresses: string[] = [],
  filters: RuleFilters = {},
  createdAtMs = ALERT_T0 - 1000,
): AlertRule {
  return { id: nextRule++, consumerId: 7, webhookEndpointId: 9, eventType, addresses, filters, createdAtMs };
}
