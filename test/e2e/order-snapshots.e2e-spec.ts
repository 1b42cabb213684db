import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
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
import { ApiHarness } from '../support/api-harness.js';

const BASE = '/api/external/orders/5m-snapshots';
const SECOND = 1_000;
const MIN = 60 * SECOND;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const GRID = 5 * MIN;
const iso = (ms: number) => new Date(ms).toISOString();
const gridAtOrBefore = (ms: number) => Math.floor(ms / GRID) * GRID;

// Snapshot times are exchange (block) time, and the routes accept only the last 30 days of the wall
// clock: the blocks run for three hours ending two days ago, one every 15 s, so a block is stamped
// exactly at every boundary (it belongs to the next snapshot).
const NOW = Date.now();
const END = gridAtOrBefore(NOW - 2 * DAY);
const FIRST = END - 3 * HOUR + 15 * SECOND;
const STEP = 15 * SECOND;
/** Every snapshot the writer takes: each boundary after the first block, up to the last block. */
const SNAPSHOT_TIMES = Array.from({ length: 36 }, (_, i) => END - 35 * GRID + i * GRID);
const MID = SNAPSHOT_TIMES[17]!;

const WALLETS = [address(0xa1), address(0xa2), address(0xa3), address(0xa4), address(0xa5), `0x${'AbCd'.repeat(10)}`];
const BACKGROUND = address(0xbe);
const BUILDER = `0x${'b'.repeat(40)}`;
const COINS = ['BTC', 'ETH', 'SOL', 'xyz:TSLA'] as const;
const PRICES: Record<string, number> = { BTC: 60_000, ETH: 3_000, SOL: 150, 'xyz:TSLA': 250 };
const TRIGGER_TYPES = ['Stop Limit', 'Stop Market', 'Take Profit Limit', 'Take Profit Market'] as const;
const S = 'node_order_statuses_by_block';
const F = 'node_fills_by_block';

interface Block {
  number: number;
  time: number;
  statuses: StatusEvent[];
  fills: FillEvent[];
}

/** A small deterministic PRNG (mulberry32), so the book is the same on every run. */
function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * hl-node order-status and fill blocks of a busy book: orders of every type placed, partly and fully
 * filled, canceled, triggered, placed and canceled in one block, rejected; a fill of an order no book
 * holds in every block (so both streams reach every block, and every coin is a known market).
 */
class BookScenario {
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
function expectedAt(blocks: Block[], t: number) {
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
type OpenOrder = ReturnType<typeof openOrder>;

const badRequest = (field: string, message: string) => ({
  status: 'error',
  message: `Invalid parameters: ${field}`,
  errors: [{ field, message }],
});
const notFound = (message: string) => ({ status: 'error', message });
const NO_SNAPSHOT = notFound('No order snapshot has been taken yet');
const ISO_RULE = (field: string) => `${field} must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)`;
const GRID_RULE = 'snapshotTime must lie on a 5-minute boundary (minutes a multiple of 5, no seconds), e.g. 2026-01-01T10:05:00.000Z';

describe('Order snapshots', () => {
  let api: ApiHarness;
  let token: string;
  let dataSource: DataSource;
  let facts: ExchangeFactsWriter;
  const scenario = new BookScenario();

  beforeAll(async () => {
    api = await ApiHarness.start();
    // Hundreds of requests in a minute: above any plan's rate limit.
    ({ token } = await api.createConsumer({ name: 'order-snapshots-suite', rateLimitPerMinute: 100_000 }));
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
    facts = await startedWriter(dataSource, ExchangeFactsWriter);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await api?.close();
  });

  const get = (path: string) => api.get(path, token);

  /** Every page of a list, each page checked to hold at most `limit` orders. */
  async function walk(path: string, limit: number): Promise<OpenOrder[]> {
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

  describe('before any snapshot', () => {
    it('answers 404 saying no snapshot was taken yet', async () => {
      const stamp = await get(`${BASE}/latest-snapshot-timestamp`);
      expect(stamp.status).toBe(404);
      expect(stamp.body).toEqual(NO_SNAPSHOT);
      const latest = await get(`${BASE}/latest`);
      expect(latest.status).toBe(404);
      expect(latest.body).toEqual(NO_SNAPSHOT);
      const at = await get(`${BASE}/${iso(END)}`);
      expect(at.status).toBe(404);
      expect(at.body).toEqual(notFound(`No order snapshot was taken at ${iso(END)}`));
    });
  });

  describe('with three hours of blocks', () => {
    beforeAll(async () => {
      for (let time = FIRST; time <= END; time += STEP) scenario.add(time);
      const lines = BookScenario.feed(scenario.blocks);
      // Batches of about 20 minutes, as the node feed would hand them over.
      for (let i = 0; i < lines.length; i += 160) await facts.writeBlocks(lines.slice(i, i + 160), 'node');
    });

    it('rebuilds a busy book: the scenario covers every case', () => {
      const all = SNAPSHOT_TIMES.flatMap((t) => expectedAt(scenario.blocks, t));
      expect(new Set(all.map((o) => o.orderType))).toEqual(new Set(['Limit', ...TRIGGER_TYPES]));
      expect(all.some((o) => o.sz < o.origSz)).toBe(true);
      expect(all.some((o) => o.builder === BUILDER) && all.some((o) => o.builder === '')).toBe(true);
      expect(all.some((o) => o.children.length > 0)).toBe(true);
      expect(expectedAt(scenario.blocks, END).length).toBeGreaterThan(200);
      expect(expectedAt(scenario.blocks, END).length).toBeLessThan(500);
    });

    it('gives the newest snapshot time as a bare JSON string', async () => {
      const res = await get(`${BASE}/latest-snapshot-timestamp`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.text).toBe(JSON.stringify(iso(END)));
      expect(res.body).toBe(iso(END));
    });

    it('answers /latest with the whole book at the newest snapshot, 100 orders a page by default', async () => {
      const expected = expectedAt(scenario.blocks, END);
      const first = await get(`${BASE}/latest`);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        orders: expected.slice(0, 100),
        nextCursor: expect.stringMatching(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/),
      });
      const seen = [...first.body.orders];
      let cursor: string | null = first.body.nextCursor;
      while (cursor !== null) {
        const res = await get(`${BASE}/latest?nextCursor=${encodeURIComponent(cursor)}`);
        expect(res.body.orders.length).toBeLessThanOrEqual(100);
        seen.push(...res.body.orders);
        cursor = res.body.nextCursor;
      }
      expect(seen).toEqual(expected);
      expect((await get(`${BASE}/latest?limit=500`)).body).toEqual({ orders: expected, nextCursor: null });
      // Orders placed in the first minutes of the feed are still in the book three hours later.
      expect(seen.some((o) => Date.parse(o.timestamp) < FIRST + 10 * MIN)).toBe(true);
    });

    it('answers every snapshot with the book rebuilt from the statuses and fills written', async () => {
      for (const t of SNAPSHOT_TIMES) {
        const res = await get(`${BASE}/${iso(t)}?limit=500`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ orders: expectedAt(scenario.blocks, t), nextCursor: null });
      }
      // The full book at T, whenever the orders were placed: the orders of the first block, three hours old by the last snapshot, are in every one.
      expect(scenario.resting.size).toBe(3);
      for (const t of [SNAPSHOT_TIMES[0]!, MID, END]) {
        const res = await get(`${BASE}/${iso(t)}?limit=500`);
        const resting = (res.body.orders as OpenOrder[]).filter((o) => scenario.resting.has(o.oid));
        expect(resting.map((o) => o.oid).sort()).toEqual([...scenario.resting].sort());
        expect(resting.every((o) => Date.parse(o.timestamp) <= FIRST)).toBe(true);
      }
    });

    it('walks every page of a past snapshot, each order exactly once', async () => {
      const expected = expectedAt(scenario.blocks, MID);
      const seen = await walk(`${BASE}/${iso(MID)}`, 37);
      expect(seen).toEqual(expected);
      expect(new Set(seen.map((o) => `${o.address}/${o.oid}`)).size).toBe(expected.length);
      expect(await walk(`${BASE}/${iso(MID)}`, 5)).toEqual(expected);
    });

    it('filters by coin in any case, a HIP-3 market included; a known market without orders is empty, an unknown one a 404', async () => {
      const expected = expectedAt(scenario.blocks, MID);
      for (const [spelling, coin] of [
        ['btc', 'BTC'],
        ['Eth', 'ETH'],
        ['SOL', 'SOL'],
        ['XYZ:tsla', 'xyz:TSLA'],
      ]) {
        const res = await get(`${BASE}/${iso(MID)}?coin=${encodeURIComponent(spelling!)}&limit=500`);
        expect(res.body).toEqual({ orders: expected.filter((o) => o.coin === coin), nextCursor: null });
        expect(res.body.orders.length).toBeGreaterThan(0);
      }
      const latestEth = await walk(`${BASE}/latest?coin=eth`, 20);
      expect(latestEth).toEqual(expectedAt(scenario.blocks, END).filter((o) => o.coin === 'ETH'));
      const unknown = await get(`${BASE}/${iso(MID)}?coin=NOPE`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(notFound('Unknown coin: NOPE'));
      expect((await get(`${BASE}/latest?coin=NOPE`)).status).toBe(404);
    });

    it('filters by the wallet spelt in any case, and by one order id', async () => {
      const expected = expectedAt(scenario.blocks, MID);
      const mixed = WALLETS[5]!;
      for (const spelling of [mixed, mixed.toLowerCase(), `0x${mixed.slice(2).toUpperCase()}`]) {
        const res = await get(`${BASE}/${iso(MID)}?address=${spelling}&limit=500`);
        expect(res.body).toEqual({ orders: expected.filter((o) => o.address === mixed.toLowerCase()), nextCursor: null });
        expect(res.body.orders.length).toBeGreaterThan(0);
      }
      const a2 = await get(`${BASE}/${iso(MID)}?address=${WALLETS[1]!.toUpperCase().replace('0X', '0x')}&limit=500`);
      expect(a2.body).toEqual({ orders: expected.filter((o) => o.address === WALLETS[1]), nextCursor: null });
      expect((await get(`${BASE}/${iso(MID)}?address=${address(0x9999)}`)).body).toEqual({ orders: [], nextCursor: null });

      const one = expected[7]!;
      expect((await get(`${BASE}/${iso(MID)}?oid=${one.oid}`)).body).toEqual({ orders: [one], nextCursor: null });
      // An order that left the book before MID (or was never in it) is not in the snapshot.
      const gone = expectedAt(scenario.blocks, SNAPSHOT_TIMES[0]!).find((o) => !expected.some((e) => e.oid === o.oid))!;
      expect((await get(`${BASE}/${iso(MID)}?oid=${gone.oid}`)).body).toEqual({ orders: [], nextCursor: null });
      expect((await get(`${BASE}/${iso(SNAPSHOT_TIMES[0]!)}?oid=${gone.oid}`)).body.orders).toHaveLength(1);
    });

    it('filters by order type, each of the five', async () => {
      const expected = expectedAt(scenario.blocks, MID);
      for (const orderType of ['Limit', ...TRIGGER_TYPES]) {
        const res = await get(`${BASE}/${iso(MID)}?orderType=${encodeURIComponent(orderType)}&limit=500`);
        expect(res.body).toEqual({ orders: expected.filter((o) => o.orderType === orderType), nextCursor: null });
        expect(res.body.orders.length).toBeGreaterThan(0);
      }
    });

    it("filters by the order's creation time, both bounds inclusive", async () => {
      const expected = expectedAt(scenario.blocks, END);
      const times = [...new Set(expected.map((o) => Date.parse(o.timestamp)))].sort((a, b) => a - b);
      const start = times[10]!;
      const end = times[times.length - 10]!;
      const inWindow = (o: OpenOrder) => Date.parse(o.timestamp) >= start && Date.parse(o.timestamp) <= end;
      expect((await get(`${BASE}/latest?start=${iso(start)}&end=${iso(end)}&limit=500`)).body).toEqual({
        orders: expected.filter(inWindow),
        nextCursor: null,
      });
      expect((await get(`${BASE}/latest?start=${iso(start)}&limit=500`)).body.orders).toEqual(
        expected.filter((o) => Date.parse(o.timestamp) >= start),
      );
      expect((await get(`${BASE}/latest?end=${iso(end)}&limit=500`)).body.orders).toEqual(
        expected.filter((o) => Date.parse(o.timestamp) <= end),
      );
      // One millisecond inside each bound leaves out the orders on it.
      const inner = await get(`${BASE}/latest?start=${iso(start + 1)}&end=${iso(end - 1)}&limit=500`);
      expect(inner.body.orders).toEqual(expected.filter((o) => Date.parse(o.timestamp) > start && Date.parse(o.timestamp) < end));
      // A time without a zone is UTC; an offset names the same instant.
      const zoneless = iso(start).replace('Z', '');
      expect((await get(`${BASE}/latest?start=${zoneless}&limit=500`)).body.orders).toEqual(
        expected.filter((o) => Date.parse(o.timestamp) >= start),
      );
      const exact = await get(`${BASE}/latest?start=${iso(start)}&end=${iso(start)}`);
      expect(exact.body.orders).toEqual(expected.filter((o) => Date.parse(o.timestamp) === start));
      expect(exact.body.orders.length).toBeGreaterThan(0);
    });

    it('combines every filter, and pages a filtered list', async () => {
      const expected = expectedAt(scenario.blocks, MID);
      const target = expected.find((o) => o.orderType === 'Limit' && o.coin === 'BTC')!;
      const query = `coin=btc&address=${target.address.toUpperCase().replace('0X', '0x')}&orderType=Limit&start=${target.timestamp}&end=${target.timestamp}&oid=${target.oid}`;
      expect((await get(`${BASE}/${iso(MID)}?${query}`)).body).toEqual({ orders: [target], nextCursor: null });
      const filtered = expected.filter((o) => o.coin === 'SOL' && o.orderType === 'Limit');
      expect(filtered.length).toBeGreaterThan(3);
      expect(await walk(`${BASE}/${iso(MID)}?coin=sol&orderType=Limit`, 2)).toEqual(filtered);
      expect((await get(`${BASE}/${iso(MID)}?coin=sol&orderType=Limit&address=${WALLETS[0]}&start=${iso(END + 1)}`)).body).toEqual({
        orders: [],
        nextCursor: null,
      });
    });

    it('accepts a snapshot time with an offset, without a zone or as a date at midnight', async () => {
      const body = (await get(`${BASE}/${iso(MID)}?limit=500`)).body;
      const offset = new Date(MID + 2 * HOUR).toISOString().replace('Z', '+02:00');
      expect((await get(`${BASE}/${encodeURIComponent(offset)}?limit=500`)).body).toEqual(body);
      expect((await get(`${BASE}/${iso(MID).replace('Z', '')}?limit=500`)).body).toEqual(body);
      // Midnight of the day before the first block is on the grid, and no block came before it, so no
      // snapshot (the first block's own midnight may fall inside the three hours, by the time of day).
      const day = iso(FIRST - DAY).slice(0, 10);
      const res = await get(`${BASE}/${day}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound(`No order snapshot was taken at ${day}T00:00:00.000Z`));
    });

    it('answers a grid time of the last 30 days without a snapshot with a 404', async () => {
      for (const t of [END - GRID * 40, END + GRID, gridAtOrBefore(Date.now() - MIN), gridAtOrBefore(Date.now() - 30 * DAY + 2 * GRID)]) {
        const res = await get(`${BASE}/${iso(t)}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound(`No order snapshot was taken at ${iso(t)}`));
      }
    });

    it.each([
      ['off the grid by a millisecond', () => iso(END + 1), GRID_RULE],
      ['off the grid by a minute', () => iso(END - MIN), GRID_RULE],
      ['off the grid by a second', () => iso(END + SECOND), GRID_RULE],
      ['in the future', () => iso(gridAtOrBefore(Date.now()) + 2 * GRID), 'snapshotTime must not be in the future'],
      [
        'more than 30 days old',
        () => iso(gridAtOrBefore(Date.now() - 30 * DAY) - 2 * GRID),
        'snapshotTime must be within the last 30 days (snapshots are kept 30 days)',
      ],
      ['a year old', () => iso(END - 365 * DAY), 'snapshotTime must be within the last 30 days (snapshots are kept 30 days)'],
      ['not a time', () => 'yesterday', ISO_RULE('snapshotTime')],
      ['a day that does not exist', () => '2026-02-30T00:00:00Z', ISO_RULE('snapshotTime')],
      ['epoch ms', () => String(END), ISO_RULE('snapshotTime')],
    ])('answers a snapshotTime %s with a 400 naming the rule', async (_case, value, message) => {
      const res = await get(`${BASE}/${encodeURIComponent(value())}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest('snapshotTime', message));
    });

    it.each([
      ['limit=0', 'limit', 'limit must not be less than 1'],
      ['limit=501', 'limit', 'limit must not be greater than 500'],
      ['limit=ten', 'limit', 'limit must be an integer number'],
      ['oid=-1', 'oid', 'oid must be a non-negative integer'],
      ['oid=1.5', 'oid', 'oid must be an integer number'],
      ['oid=1e3', 'oid', 'oid must be an integer number'],
      ['oid=abc', 'oid', 'oid must be an integer number'],
      ['oid=99999999999999999999', 'oid', `oid must not be greater than ${Number.MAX_SAFE_INTEGER}`],
      ['address=0x1234', 'address', 'address must be a 0x address of 40 hex digits'],
      [`address=${address(1).slice(0, -1)}g`, 'address', 'address must be a 0x address of 40 hex digits'],
      [
        'orderType=Market',
        'orderType',
        'orderType must be one of the following values: Limit, Stop Limit, Stop Market, Take Profit Limit, Take Profit Market',
      ],
      [
        'orderType=limit',
        'orderType',
        'orderType must be one of the following values: Limit, Stop Limit, Stop Market, Take Profit Limit, Take Profit Market',
      ],
      ['start=soon', 'start', ISO_RULE('start')],
      ['end=2026-13-01T00:00:00Z', 'end', ISO_RULE('end')],
      [`start=${iso(END)}&end=${iso(END - 1)}`, 'end', 'end must not be before start'],
      ['coin=', 'coin', 'coin should not be empty'],
      ['side=A', 'side', 'property side should not exist'],
    ])('answers ?%s with a 400 naming the field, on both page routes', async (query, field, message) => {
      for (const path of [`${BASE}/latest`, `${BASE}/${iso(MID)}`]) {
        const res = await get(`${path}?${query}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(badRequest(field, message));
      }
    });

    it('refuses a query on the timestamp route', async () => {
      const res = await get(`${BASE}/latest-snapshot-timestamp?limit=1`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest('limit', 'property limit should not exist'));
    });

    it('refuses an altered cursor, and a cursor of another snapshot, with a 400 naming nextCursor', async () => {
      const { nextCursor } = (await get(`${BASE}/${iso(MID)}?limit=3`)).body as { nextCursor: string };
      const [payload, signature] = nextCursor.split('.') as [string, string];
      const keys = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [number, string, number];
      const altered = `${Buffer.from(JSON.stringify([keys[0], keys[1], keys[2] + 1])).toString('base64url')}.${signature}`;
      for (const [cursor, reason] of [
        [altered, 'signature does not match'],
        ['nope', 'malformed'],
      ] as const) {
        const res = await get(`${BASE}/${iso(MID)}?limit=3&nextCursor=${encodeURIComponent(cursor)}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          badRequest('nextCursor', `nextCursor is not a cursor this list issued (${reason}); start again without it`),
        );
      }
      const other = await get(`${BASE}/${iso(MID + GRID)}?limit=3&nextCursor=${encodeURIComponent(nextCursor)}`);
      expect(other.status).toBe(400);
      expect(other.body).toEqual(
        badRequest('nextCursor', `nextCursor continues the snapshot of ${iso(MID)}, not this one; start again without it`),
      );
      expect((await get(`${BASE}/${iso(MID)}?limit=3&nextCursor=${encodeURIComponent(nextCursor)}`)).body.orders).toEqual(
        expectedAt(scenario.blocks, MID).slice(3, 6),
      );
    });

    it('documents the three routes in the OpenAPI document', async () => {
      const doc = (await api.http.get('/docs-json')).body as {
        paths: Record<
          string,
          { get: { parameters: Array<{ name: string; in: string }>; responses: Record<string, unknown>; security: unknown } }
        >;
      };
      const filters = ['address', 'coin', 'end', 'limit', 'nextCursor', 'oid', 'orderType', 'start'].map((name) => `query:${name}`);
      const params = (path: string) => doc.paths[path]!.get.parameters.map((p) => `${p.in}:${p.name}`).sort();
      expect(params(`${BASE}/latest-snapshot-timestamp`)).toEqual([]);
      expect(params(`${BASE}/latest`)).toEqual(filters);
      expect(params(`${BASE}/{snapshotTime}`)).toEqual(['path:snapshotTime', ...filters].sort());
      for (const path of [`${BASE}/latest-snapshot-timestamp`, `${BASE}/latest`, `${BASE}/{snapshotTime}`]) {
        expect(doc.paths[path]!.get.security).toEqual([{ bearer: [] }]);
        expect(Object.keys(doc.paths[path]!.get.responses).sort()).toEqual(['200', '400', '401', '404', '429', '500']);
      }
    });

    it('needs the bearer token', async () => {
      for (const path of [`${BASE}/latest-snapshot-timestamp`, `${BASE}/latest`, `${BASE}/${iso(MID)}`]) {
        const res = await api.get(path);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ status: 'error', message: 'Unauthorized' });
      }
    });

    // Last: it moves the newest snapshot on.
    it('keeps a /latest cursor on its snapshot while a newer one is taken', async () => {
      const before = expectedAt(scenario.blocks, END);
      const first = await get(`${BASE}/latest?limit=60`);
      expect(first.body.orders).toEqual(before.slice(0, 60));

      // Five minutes more: five resting orders canceled, then a block past the next boundary.
      scenario.add(END + 2 * MIN, (live) =>
        [...live].slice(0, 5).map(([key, o]) => {
          live.delete(key);
          return { user: o.user, status: 'canceled', order: o.order, builder: o.builder };
        }),
      );
      scenario.add(END + GRID + SECOND);
      await facts.writeBlocks(BookScenario.feed(scenario.blocks.slice(-2)), 'node');
      const after = expectedAt(scenario.blocks, END + GRID);
      expect(after).not.toEqual(before.map((o) => ({ ...o, snapshotTs: iso(END + GRID) })));
      expect((await get(`${BASE}/latest-snapshot-timestamp`)).body).toBe(iso(END + GRID));

      const rest: OpenOrder[] = [];
      let cursor: string | null = first.body.nextCursor;
      while (cursor !== null) {
        const res = await get(`${BASE}/latest?limit=60&nextCursor=${encodeURIComponent(cursor)}`);
        rest.push(...res.body.orders);
        cursor = res.body.nextCursor;
      }
      expect([...first.body.orders, ...rest]).toEqual(before);
      expect(await walk(`${BASE}/latest`, 60)).toEqual(after);
      expect((await get(`${BASE}/${iso(END)}?limit=60&nextCursor=${encodeURIComponent(first.body.nextCursor)}`)).body.orders).toEqual(
        before.slice(60, 120),
      );
    });
  });
});
