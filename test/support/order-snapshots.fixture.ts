import { expect } from '@jest/globals';
import Big from 'big.js';
import type { WireOrder } from '#exchange';
import { ExchangeFactsWriter, type FeedBlock } from '#market';
import {
  address,
  fed,
  fillLine,
  limitOrder,
  startedWriter,
  statusLine,
  type FillEvent,
  type StatusEvent,
  type TestPosition,
} from '#testing';
import { useSeededApi } from './seeded-api.js';
import { prng } from './prng.js';

// The order-snapshots suites' data: a deterministic busy book written as hl-node order statuses and fills, and the snapshots it must give.

export const BASE = '/api/external/orders/5m-snapshots';
export const SECOND = 1_000;
export const MIN = 60 * SECOND;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;
export const GRID = 5 * MIN;
export const iso = (ms: number) => new Date(ms).toISOString();
export const gridAtOrBefore = (ms: number) => Math.floor(ms / GRID) * GRID;

// Snapshot times are exchange (block) time, and the routes accept only the last 30 days of the wall
// clock: the blocks run for three hours ending two days ago, one every 15 s, so a block is stamped
// exactly at every boundary (it belongs to the next snapshot).
const NOW = Date.now();
export const END = gridAtOrBefore(NOW - 2 * DAY);
export const FIRST = END - 3 * HOUR + 15 * SECOND;
const STEP = 15 * SECOND;
/** Every snapshot the writer takes: each boundary after the first block, up to the last block. */
export const SNAPSHOT_TIMES = Array.from({ length: 36 }, (_, i) => END - 35 * GRID + i * GRID);
export const MID = SNAPSHOT_TIMES[17]!;

export const WALLETS = [address(0xa1), address(0xa2), address(0xa3), address(0xa4), address(0xa5), `0x${'AbCd'.repeat(10)}`];
const BACKGROUND = address(0xbe);
export const BUILDER = `0x${'b'.repeat(40)}`;
const COINS = ['BTC', 'ETH', 'SOL', 'xyz:TSLA'] as const;
const PRICES: Record<string, number> = { BTC: 60_000, ETH: 3_000, SOL: 150, 'xyz:TSLA': 250 };
export const TRIGGER_TYPES = ['Stop Limit', 'Stop Market', 'Take Profit Limit', 'Take Profit Market'] as const;
const S = 'node_order_statuses_by_block';
const F = 'node_fills_by_block';

interface Block {
  number: number;
  time: number;
  statuses: StatusEvent[];
  fills: FillEvent[];
}

/**
 * hl-node order-status and fill blocks of a busy book: orders of every type placed, partly and fully
 * filled, canceled, triggered, placed and canceled in one block, rejected; a fill of an order no book
 * holds in every block (so both streams reach every block, and every coin is a known market).
 */
export class BookScenario {
  readonly blocks: Block[] = [];
  private readonly random = prng(20_260_302);
  private readonly live = new Map<
    string,
    { user: string; order: WireOrder; builder: StatusEvent['builder']; quarters: number; placedIn: number }
  >();
  /** Orders of the first block that nothing ever touches: they rest through every snapshot. */
  readonly resting = new Set<number>();
  private nextOid = 5_000_000;
  private nextTid = 1;
  private nextBlock = 800_000;

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  private newOrder(time: number): StatusEvent {
    const coin = this.pick(COINS);
    const side = this.random() < 0.5 ? 'A' : 'B';
    const px = (PRICES[coin]! * (0.8 + this.random() * 0.4)).toFixed(1);
    const quarters = 1 + Math.floor(this.random() * 40);
    const base = limitOrder({
      coin,
      side,
      limitPx: px,
      sz: (quarters / 4).toFixed(2),
      oid: this.nextOid++,
      timestamp: time - Math.floor(this.random() * 900),
    });
    let order: WireOrder;
    if (this.random() < 0.6) {
      const child = {
        ...limitOrder({ coin, side: side === 'A' ? 'B' : 'A', limitPx: px, sz: base.sz, oid: 0, timestamp: base.timestamp }),
        isTrigger: true,
        orderType: 'Take Profit Market' as const,
        triggerPx: px,
        triggerCondition: `Price above ${px}`,
        tif: null,
      };
      order = {
        ...base,
        tif: this.pick(['Gtc', 'Alo', null] as const),
        cloid: this.random() < 0.3 ? `0x${this.nextOid.toString(16).padStart(32, '0')}` : null,
        children: this.random() < 0.1 ? [child] : [],
      };
    } else {
      const above = this.random() < 0.5;
      order = {
        ...base,
        orderType: this.pick(TRIGGER_TYPES),
        isTrigger: true,
        triggerPx: px,
        triggerCondition: `Price ${above ? 'above' : 'below'} ${px}`,
        tif: null,
        reduceOnly: this.random() < 0.5,
        isPositionTpsl: this.random() < 0.3,
      };
    }
    const builder = this.random() < 0.25 ? { b: BUILDER, f: this.pick([10, 25, 50]) } : null;
    return { user: this.pick(WALLETS), status: 'open', order, builder };
  }

  private key(user: string, oid: number): string {
    return `${user.toLowerCase()}/${oid}`;
  }

  /** One block at `time`; `extra` adds statuses of the caller's. */
  add(time: number, extra: (live: BookScenario['live']) => StatusEvent[] = () => []): void {
    const number = this.nextBlock++;
    const fills: FillEvent[] = [
      { user: BACKGROUND, oid: 900_000_000 + number, sz: '1.0', tid: this.nextTid++, coin: COINS[number % COINS.length] },
    ];
    const statuses: StatusEvent[] = [];
    const touched = new Set<string>();
    const older = [...this.live].filter(([, o]) => o.placedIn < number && !this.resting.has(o.order.oid));

    // A fill of a resting limit order placed in an earlier block: part of what is left, or all of it.
    const limits = older.filter(([, o]) => !o.order.isTrigger);
    if (limits.length > 0 && this.random() < 0.4) {
      const [key, o] = this.pick(limits);
      const quarters = this.random() < 0.3 ? o.quarters : 1 + Math.floor(this.random() * o.quarters);
      fills.push({
        user: o.user,
        oid: o.order.oid,
        sz: (quarters / 4).toFixed(2),
        tid: this.nextTid++,
        coin: o.order.coin,
        side: o.order.side,
      });
      o.quarters -= quarters;
      if (o.quarters === 0) this.live.delete(key);
      touched.add(key);
    }
    const untouched = older.filter(([key]) => !touched.has(key) && this.live.has(key));
    if (untouched.length > 0 && this.random() < 0.35) {
      const [key, o] = this.pick(untouched);
      statuses.push({ user: o.user, status: this.pick(['canceled', 'marginCanceled']), order: o.order, builder: o.builder });
      this.live.delete(key);
      touched.add(key);
    }
    const triggers = untouched.filter(([key, o]) => o.order.isTrigger && !touched.has(key));
    if (triggers.length > 0 && this.random() < 0.15) {
      const [key, o] = this.pick(triggers);
      statuses.push({ user: o.user, status: 'triggered', order: o.order, builder: o.builder });
      this.live.delete(key);
    }
    for (let n = this.blocks.length === 0 ? 3 : Math.floor(this.random() * 3); n > 0; n--) {
      const placed = this.newOrder(time);
      if (this.blocks.length === 0) this.resting.add(placed.order.oid);
      statuses.push(placed);
      this.live.set(this.key(placed.user, placed.order.oid), {
        user: placed.user,
        order: placed.order,
        builder: placed.builder,
        quarters: Math.round(Number(placed.order.sz) * 4),
        placedIn: number,
      });
    }
    // Placed and canceled in one block: the last status decides, so it never rests.
    if (this.random() < 0.05) {
      const placed = this.newOrder(time);
      statuses.push(placed, { ...placed, status: 'canceled' });
    }
    if (this.random() < 0.03) statuses.push({ ...this.newOrder(time), status: 'rejected' });
    statuses.push(...extra(this.live));
    this.blocks.push({ number, time, statuses, fills });
  }

  /** The lines of blocks as the feed hands them over: each block's statuses (hl-node writes a line for every block, empty or not), then its fills. */
  static feed(blocks: Block[]): FeedBlock<TestPosition>[] {
    return blocks.flatMap((b) => [fed(S, statusLine(b.number, b.time, b.statuses)), fed(F, fillLine(b.number, b.time, b.fills))]);
  }
}

interface BookEntry {
  user: string;
  order: WireOrder;
  builder: StatusEvent['builder'];
  sz: Big;
  height: number;
}

/**
 * The book at snapshot T, rebuilt from the blocks as written, independently of the writer: every block
 * stamped before T in order; fills reduce what is left (at zero the order leaves), and the last status of
 * an order in a block decides: `open` books it as given, anything else takes it out.
 */
export function expectedAt(blocks: Block[], t: number) {
  const book = new Map<string, BookEntry>();
  for (const block of blocks.filter((b) => b.time < t)) {
    for (const fill of block.fills) {
      const key = `${fill.user.toLowerCase()}/${fill.oid}`;
      const entry = book.get(key);
      if (!entry) continue;
      entry.sz = entry.sz.minus(fill.sz);
      entry.height = block.number;
      if (entry.sz.lte(0)) book.delete(key);
    }
    const last = new Map<string, StatusEvent>();
    for (const status of block.statuses) last.set(`${status.user.toLowerCase()}/${status.order.oid}`, status);
    for (const [key, status] of last) {
      if (status.status === 'open')
        book.set(key, {
          user: status.user,
          order: status.order,
          builder: status.builder,
          sz: new Big(status.order.sz),
          height: block.number,
        });
      else book.delete(key);
    }
  }
  return [...book.values()]
    .map((e) => openOrder(e, t))
    .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : a.oid - b.oid));
}

/** The contract's Open order of a book entry at snapshot T, from the wire values. */
function openOrder(e: BookEntry, t: number) {
  const o = e.order;
  return {
    height: e.height,
    address: e.user.toLowerCase(),
    oid: o.oid,
    coin: o.coin,
    side: o.side,
    limitPx: Number(o.limitPx),
    sz: Number(e.sz.toFixed()),
    origSz: Number(o.origSz),
    timestamp: iso(o.timestamp),
    triggerCondition: o.triggerCondition,
    isTrigger: o.isTrigger,
    triggerPx: Number(o.triggerPx),
    children: o.children,
    isPositionTpsl: o.isPositionTpsl,
    reduceOnly: o.reduceOnly,
    orderType: o.orderType,
    tif: o.tif ?? '',
    cloid: o.cloid ?? '',
    status: 'open',
    builder: e.builder?.b ?? '',
    builderFee: e.builder?.f ?? 0,
    untriggered: o.isTrigger,
    snapshotTs: iso(t),
  };
}
export type OpenOrder = ReturnType<typeof openOrder>;

export const badRequest = (field: string, message: string) => ({
  status: 'error',
  message: `Invalid parameters: ${field}`,
  errors: [{ field, message }],
});
export const notFound = (message: string) => ({ status: 'error', message });
export const NO_SNAPSHOT = notFound('No order snapshot has been taken yet');
export const ISO_RULE = (field: string) =>
  `${field} must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)`;
export const GRID_RULE =
  'snapshotTime must lie on a 5-minute boundary (minutes a multiple of 5, no seconds), e.g. 2026-01-01T10:05:00.000Z';

/** The order-snapshots suites' set-up: the api, the book scenario, and the facts writer that writes its blocks. */
export function useBookSuite() {
  const scenario = new BookScenario();
  const book = { scenario } as { scenario: BookScenario; facts: ExchangeFactsWriter };
  // Hundreds of requests in a minute: above any plan's rate limit.
  const suite = useSeededApi({ name: 'order-snapshots-suite', rateLimitPerMinute: 100_000 }, async (dataSource) => {
    book.facts = await startedWriter(dataSource, ExchangeFactsWriter);
  });

  /** Every page of a list, each page checked to hold at most `limit` orders. */
  async function walk(path: string, limit: number): Promise<OpenOrder[]> {
    const { get } = suite;
    const orders: OpenOrder[] = [];
    let cursor: string | null = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const res = await get(`${path}${sep}limit=${limit}${cursor ? `&nextCursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['nextCursor', 'orders']);
      expect(res.body.orders.length).toBeLessThanOrEqual(limit);
      orders.push(...res.body.orders);
      cursor = res.body.nextCursor;
    } while (cursor !== null);
    return orders;
  }

  return { suite, book, scenario, walk };
}

/** The three hours of blocks, written in batches of about 20 minutes, as the node feed would hand them over. */
export async function writeThreeHours(book: { scenario: BookScenario; facts: ExchangeFactsWriter }): Promise<void> {
  for (let time = FIRST; time <= END; time += STEP) book.scenario.add(time);
  const lines = BookScenario.feed(book.scenario.blocks);
  for (let i = 0; i < lines.length; i += 160) await book.facts.writeBlocks(lines.slice(i, i + 160), 'node');
}
