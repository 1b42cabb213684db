import { describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import type { NodeFillEvent } from '../fills/fill.types.js';
import { parseBlockLine } from '../node/node-block.parser.js';
import type { NodeOrderStatusEvent } from '../orders/order.types.js';
import { HyperliquidSimulator } from './simulator.js';
import { DEFAULT_BOOK_ORDERS, type SimulatorSettings } from './simulator.types.js';

// One simulated day with the default book, on a small exchange so it runs in seconds.
const START = Date.UTC(2026, 5, 28, 0, 0);
const END = START + 24 * 3_600_000;
const FIVE_MINUTES = 300_000;
const SETTINGS: SimulatorSettings = { seed: 9, startTimeMs: START, wallets: 60, markets: 3, eventsPerSecond: 0.2 };
const ORDER_TYPES = ['Limit', 'Stop Limit', 'Stop Market', 'Take Profit Limit', 'Take Profit Market'];

interface Block {
  number: number;
  timeMs: number;
  statuses: NodeOrderStatusEvent[];
  fills: NodeFillEvent[];
}

const sim = new HyperliquidSimulator(SETTINGS);
const byNumber = new Map<number, Block>();
for (const line of sim.run(END)) {
  if (line.stream !== 'node_order_statuses_by_block' && line.stream !== 'node_fills_by_block') continue;
  const parsed = parseBlockLine(line.stream, line.line, {});
  if (!parsed.ok) throw new Error(parsed.error.message);
  const b = parsed.value;
  const block = byNumber.get(b.blockNumber) ?? { number: b.blockNumber, timeMs: b.blockTimeMs, statuses: [], fills: [] };
  if (b.stream === 'node_order_statuses_by_block') block.statuses = b.events;
  if (b.stream === 'node_fills_by_block') block.fills = b.events;
  byNumber.set(b.blockNumber, block);
}
const blocks = [...byNumber.values()].sort((a, b) => a.number - b.number);

/** What the replay knows of one order (address|oid). */
interface Tracked {
  origSz: Big;
  filled: Big;
  openedIn: number | null;
  endedIn: number | null;
  /** Blocks with a fill of it as the resting side, after the block it was placed in. */
  laterFills: number;
}

interface Booked {
  orderType: string;
  sz: Big;
  timestampMs: number;
  tif: string | null;
}

/**
 * Replays the written statuses and fills block by block, independently of the simulator's books: within a
 * block the statuses come first (an `open` is the order as placed), then the fills, and a status that
 * ends an order (filled, canceled, ...) counts the fills of its own block. Every break of the rules is
 * collected; the book is sampled at every 5-minute boundary, as the open-orders snapshots are.
 */
function replay() {
  const orders = new Map<string, Tracked>();
  const book = new Map<string, Booked>();
  const broken: string[] = [];
  const snapshots: Array<{ atMs: number; types: Record<string, number>; size: number }> = [];
  const statusesSeen = new Set<string>();
  const modifies = { count: 0 };
  let boundary = Math.floor(START / FIVE_MINUTES) * FIVE_MINUTES + FIVE_MINUTES;

  for (const block of blocks) {
    for (; block.timeMs >= boundary; boundary += FIVE_MINUTES) {
      const types: Record<string, number> = {};
      for (const o of book.values()) types[o.orderType] = (types[o.orderType] ?? 0) + 1;
      snapshots.push({ atMs: boundary, types, size: book.size });
    }
    const filledHere = new Map<string, Big>();
    for (const { address, fill } of block.fills) {
      const key = `${address}|${fill.oid}`;
      filledHere.set(key, (filledHere.get(key) ?? new Big(0)).plus(fill.sz));
    }
    const hashesOpened = new Set<string>();
    const hashesCanceled = new Set<string>();

    for (const e of block.statuses) {
      const key = `${e.user}|${e.order.oid}`;
      const at = `block ${block.number} ${e.status} ${key}`;
      statusesSeen.add(e.status);
      const tracked = orders.get(key) ?? {
        origSz: new Big(e.order.origSz),
        filled: new Big(0),
        openedIn: null,
        endedIn: null,
        laterFills: 0,
      };
      orders.set(key, tracked);
      if (!tracked.origSz.eq(e.order.origSz)) broken.push(`${at}: origSz changed`);
      if (tracked.endedIn !== null) broken.push(`${at}: status after the order ended in block ${tracked.endedIn}`);
      const sz = new Big(e.order.sz);
      if (e.status === 'open') {
        if (tracked.openedIn !== null) broken.push(`${at}: opened twice`);
        if (!sz.eq(tracked.origSz.minus(tracked.filled))) broken.push(`${at}: sz ${e.order.sz} is not origSz minus earlier fills`);
        tracked.openedIn = block.number;
        book.set(key, { orderType: e.order.orderType, sz, timestampMs: e.order.timestamp, tif: e.order.tif });
        if (e.hash) hashesOpened.add(`${e.user}|${e.hash}`);
      } else if (e.status === 'triggered') {
        // The trigger order stops resting; its fills follow as a taker in the same block.
        if (!sz.eq(tracked.origSz.minus(tracked.filled))) broken.push(`${at}: sz ${e.order.sz} is not origSz minus earlier fills`);
        book.delete(key);
      } else {
        const left = tracked.origSz.minus(tracked.filled).minus(filledHere.get(key) ?? 0);
        if (!sz.eq(left)) broken.push(`${at}: sz ${e.order.sz}, but origSz minus fills is ${left.toFixed()}`);
        if (e.status === 'filled' && !sz.eq(0)) broken.push(`${at}: filled with sz ${e.order.sz}`);
        tracked.endedIn = block.number;
        book.delete(key);
        if (e.status === 'canceled' && e.hash) hashesCanceled.add(`${e.user}|${e.hash}`);
      }
    }
    // A modification: one action (one hash) of one wallet cancels an order and opens its replacement.
    for (const action of hashesCanceled) if (hashesOpened.has(action)) modifies.count++;

    for (const { address, fill } of block.fills) {
      const key = `${address}|${fill.oid}`;
      const at = `block ${block.number} fill tid ${fill.tid} of ${key}`;
      const tracked = orders.get(key);
      if (!tracked) {
        // Orders that never rest and have no status on hl-node either: TWAP slices and liquidations, taker side only.
        if (fill.crossed && (fill.twapId !== null || fill.liquidation !== null)) continue;
        broken.push(`${at}: fill of an order without any status`);
        continue;
      }
      if (!fill.crossed && (tracked.openedIn === null || tracked.openedIn > block.number))
        broken.push(`${at}: resting side filled before its open status`);
      if (tracked.endedIn !== null && tracked.endedIn < block.number)
        broken.push(`${at}: filled after the order ended in block ${tracked.endedIn}`);
      tracked.filled = tracked.filled.plus(fill.sz);
      if (tracked.filled.gt(tracked.origSz)) broken.push(`${at}: filled ${tracked.filled.toFixed()} of origSz ${tracked.origSz.toFixed()}`);
      if (!fill.crossed && tracked.openedIn !== null && tracked.openedIn < block.number) tracked.laterFills++;
      const booked = book.get(key);
      if (!booked) continue;
      booked.sz = booked.sz.minus(fill.sz);
      if (booked.sz.lte(0)) book.delete(key);
    }
  }
  return { orders, book, broken, snapshots, statusesSeen, modifies: modifies.count };
}

const result = replay();

describe('the simulated order book, replayed from the written statuses and fills of a day', () => {
  it('never breaks the book: open before fills, never filled beyond its size or after it ended, sz = origSz - fills in every status', () => {
    expect(blocks.length).toBeGreaterThan(20_000);
    expect(result.orders.size).toBeGreaterThan(20_000);
    expect(result.broken.slice(0, 20)).toEqual([]);
  });

  it('holds about the book setting of Limit orders at every 5-minute boundary, the large majority of the book', () => {
    const sampled = result.snapshots.filter((s) => s.atMs >= START + FIVE_MINUTES);
    expect(sampled).toHaveLength(24 * 12 - 1);
    const limits = sampled.map((s) => s.types['Limit'] ?? 0);
    expect(Math.min(...limits)).toBeGreaterThan(0.95 * DEFAULT_BOOK_ORDERS);
    expect(Math.max(...limits)).toBeLessThan(1.05 * DEFAULT_BOOK_ORDERS);
    expect(sampled.filter((s) => s.types['Limit']! < 0.95 * s.size)).toEqual([]);
  });

  it('ends with the book the simulator itself holds', () => {
    const replayed = [...result.book].map(([key, o]) => `${key} ${o.orderType} ${o.sz.toFixed()}`).sort();
    const own = sim
      .openOrders()
      .map((o) => `${o.address}|${o.oid} ${o.orderType} ${new Big(o.sz).toFixed()}`)
      .sort();
    expect(replayed).toEqual(own);
  });

  it('has GTC and ALO orders resting for hours, resting orders filled in later blocks, modifications and every way an order ends', () => {
    const oldest = Math.min(...[...result.book.values()].filter((o) => o.orderType === 'Limit').map((o) => o.timestampMs));
    expect(END - oldest).toBeGreaterThan(12 * 3_600_000);
    const tifs = new Set([...result.book.values()].map((o) => o.tif));
    for (const tif of ['Gtc', 'Alo']) expect(tifs.has(tif)).toBe(true);
    expect([...result.orders.values()].filter((o) => o.laterFills > 0).length).toBeGreaterThan(100);
    expect(result.modifies).toBeGreaterThan(100);
    for (const s of ['open', 'filled', 'canceled', 'triggered', 'reduceOnlyCanceled', 'perpMarginRejected'])
      expect(result.statusesSeen.has(s)).toBe(true);
  });
});

describe('the snapshots of a default simulator run', () => {
  it('hold all five order types at every 5-minute boundary once trigger orders had an hour to build up, Limit the large majority', () => {
    const start = Date.UTC(2026, 5, 28, 6, 0);
    const simulator = new HyperliquidSimulator({ seed: 1, startTimeMs: start, wallets: 300, markets: 8, eventsPerSecond: 1 });
    // Every order that leaves the book gets a status that says so (a filled one too), so statuses alone tell what is open.
    const book = new Map<string, string>();
    const samples: Array<{ atMs: number; types: Record<string, number> }> = [];
    let boundary = start + FIVE_MINUTES;
    for (const line of simulator.run(start + 3 * 3_600_000)) {
      for (; line.blockTimeMs >= boundary; boundary += FIVE_MINUTES) {
        const types: Record<string, number> = {};
        for (const t of book.values()) types[t] = (types[t] ?? 0) + 1;
        samples.push({ atMs: boundary, types });
      }
      if (line.stream !== 'node_order_statuses_by_block') continue;
      const parsed = parseBlockLine(line.stream, line.line, {});
      if (!parsed.ok || parsed.value.stream !== line.stream) throw new Error('unparsable statuses line');
      for (const e of parsed.value.events) {
        if (e.status === 'open') book.set(`${e.user}|${e.order.oid}`, e.order.orderType);
        else book.delete(`${e.user}|${e.order.oid}`);
      }
    }
    const after = samples.filter((s) => s.atMs >= start + 3_600_000);
    expect(after).toHaveLength(24);
    const off = after.filter(
      (s) =>
        !ORDER_TYPES.every((t) => (s.types[t] ?? 0) >= 5) || s.types['Limit']! < 0.9 * Object.values(s.types).reduce((a, b) => a + b, 0),
    );
    expect(off.map((s) => [new Date(s.atMs).toISOString(), s.types])).toEqual([]);
  });
});
