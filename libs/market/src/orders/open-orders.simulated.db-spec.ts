import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { simulate, writeHlNodeLines, type NodeFillsBlock, type NodeOrderStatusesBlock, type SimulatorSettings } from '#exchange';
import { allOpenAt, openFactsDatabase, parseLine, startedWriter, useTestEnvironment } from '#testing';
import { NodeDirectoryIngestion } from '../ingest/node-directory.ingestion.js';
import type { OpenOrderRecord } from './open-order.types.js';

const config = useTestEnvironment();
const START = Date.UTC(2026, 5, 28, 8, 50);
const END = START + 2 * 3_600_000;
// A small book (every snapshot is read back page by page, 7 orders a page); every kind of order is in it.
const SETTINGS: SimulatorSettings = { seed: 5, startTimeMs: START, wallets: 40, markets: 6, eventsPerSecond: 0.2, bookOrders: 300 };
const FIVE_MINUTES = 300_000;

/** The order streams' blocks of the run, parsed, by block number (a block may have a line in both). */
const lines = [...simulate(SETTINGS, END)];
const blocks = new Map<number, { timeMs: number; statuses: NodeOrderStatusesBlock | null; fills: NodeFillsBlock | null }>();
for (const line of lines) {
  if (line.stream !== 'node_order_statuses_by_block' && line.stream !== 'node_fills_by_block') continue;
  const block = parseLine(line.stream, line.line);
  const entry = blocks.get(block.blockNumber) ?? { timeMs: block.blockTimeMs, statuses: null, fills: null };
  if (block.stream === 'node_order_statuses_by_block') entry.statuses = block;
  if (block.stream === 'node_fills_by_block') entry.fills = block;
  blocks.set(block.blockNumber, entry);
}
const ordered = [...blocks.entries()].sort(([a], [b]) => a - b);

type Replayed = Omit<OpenOrderRecord, 'snapshotTs' | 'status' | 'untriggered'>;

/**
 * The book after every block before `untilMs`, replayed event by event from the parsed lines: the last
 * status of an order in a block decides (open: booked with what is left after this block's fills of it,
 * anything else: out); a later fill reduces the size; nothing left, out.
 */
function replay(untilMs: number): { book: Map<string, Replayed>; height: number } {
  const book = new Map<string, Replayed>();
  let height = 0;
  for (const [blockNumber, { timeMs, statuses, fills }] of ordered) {
    if (timeMs >= untilMs) break;
    height = blockNumber;
    const filled = new Map<string, Big>();
    for (const { address, fill } of fills?.events ?? []) {
      const key = `${address}|${fill.oid}`;
      filled.set(key, (filled.get(key) ?? new Big(0)).plus(fill.sz));
    }
    const decided = new Set<string>();
    for (const e of [...(statuses?.events ?? [])].reverse()) {
      const key = `${e.user}|${e.order.oid}`;
      if (decided.has(key)) continue;
      decided.add(key);
      book.delete(key);
      if (e.status !== 'open') continue;
      const o = e.order;
      const afterFills = new Big(o.origSz).minus(filled.get(key) ?? 0);
      const sz = afterFills.lt(o.sz) ? afterFills : new Big(o.sz);
      if (sz.lte(0)) continue;
      book.set(key, {
        height: blockNumber,
        address: e.user,
        oid: o.oid,
        coin: o.coin,
        side: o.side,
        limitPx: o.limitPx,
        sz: sz.toFixed(),
        origSz: o.origSz,
        timestamp: new Date(o.timestamp).toISOString(),
        triggerCondition: o.triggerCondition,
        isTrigger: o.isTrigger,
        triggerPx: o.triggerPx,
        children: o.children,
        isPositionTpsl: o.isPositionTpsl,
        reduceOnly: o.reduceOnly,
        orderType: o.orderType,
        tif: o.tif ?? '',
        cloid: o.cloid ?? '',
        builder: e.builder?.address ?? '',
        builderFee: e.builder?.feeTenthsBp ?? 0,
      });
    }
    for (const [key, amount] of filled) {
      const order = book.get(key);
      if (decided.has(key) || !order) continue;
      const sz = new Big(order.sz).minus(amount);
      if (sz.lte(0)) book.delete(key);
      else book.set(key, { ...order, sz: sz.toFixed(), height: blockNumber });
    }
  }
  return { book, height };
}

const normal = (o: Replayed) => ({
  ...o,
  limitPx: new Big(o.limitPx).toFixed(),
  sz: new Big(o.sz).toFixed(),
  origSz: new Big(o.origSz).toFixed(),
  triggerPx: new Big(o.triggerPx).toFixed(),
});
const byKey = (a: Replayed, b: Replayed) => (a.address < b.address ? -1 : a.address > b.address ? 1 : a.oid - b.oid);

describe('open orders of a simulated hl-node directory', () => {
  let dataSource: DataSource;
  let dir: string;

  beforeAll(async () => {
    ({ dataSource } = await openFactsDatabase(config.DATABASE_URL));
    dir = await mkdtemp(join(tmpdir(), 'tidewatch-orders-'));
    await writeHlNodeLines(dir, lines);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('answers every snapshot exactly as an independent replay of the lines up to it', async () => {
    // Small polls: each poll takes 40 lines of each stream, so the two streams are never level.
    const ingestion = await startedWriter(dataSource, NodeDirectoryIngestion);
    for (;;) {
      const step = await ingestion.step(dir, 40);
      expect(step.issues).toEqual([]);
      if (step.blocks === 0) break;
    }

    const times = (stream: 'statuses' | 'fills') => ordered.filter(([, b]) => b[stream] !== null).map(([, b]) => b.timeMs);
    const first = Math.min(times('statuses')[0]!, times('fills')[0]!);
    const reached = Math.min(times('statuses').at(-1)!, times('fills').at(-1)!);
    const expected: number[] = [];
    for (let t = Math.floor(first / FIVE_MINUTES) * FIVE_MINUTES + FIVE_MINUTES; t <= reached; t += FIVE_MINUTES) expected.push(t);
    const taken: Array<{ snapshot_ts: Date; height: string; order_count: number }> = await dataSource.query(
      `SELECT snapshot_ts, height, order_count FROM open_order_snapshots ORDER BY snapshot_ts`,
    );
    expect(taken.map((s) => s.snapshot_ts.getTime())).toEqual(expected);

    const seen = new Set<string>();
    let versions = 0;
    let previous = new Map<string, string>();
    for (const { snapshot_ts, height, order_count } of taken) {
      const { book, height: replayedHeight } = replay(snapshot_ts.getTime());
      const orders = (await allOpenAt(dataSource, snapshot_ts.getTime(), 7))!;
      expect(orders.every((o) => o.snapshotTs === snapshot_ts.toISOString() && o.status === 'open' && o.untriggered === o.isTrigger)).toBe(
        true,
      );
      const stored = orders.map(({ snapshotTs: _s, status: _st, untriggered: _u, ...o }) => normal(o));
      expect(stored).toEqual([...book.values()].sort(byKey).map(normal));
      expect([Number(height), order_count]).toEqual([replayedHeight, book.size]);

      const current = new Map([...book].map(([key, o]) => [key, JSON.stringify(normal(o))]));
      for (const [key, version] of current) if (previous.get(key) !== version) versions++;
      previous = current;
      for (const o of book.values()) seen.add(o.orderType);
    }
    // One interval row per order version, however many snapshots showed it.
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM open_order_intervals`)).toEqual([{ n: versions }]);
    expect(versions).toBeGreaterThan(20);
    expect([...seen].sort()).toEqual(['Limit', 'Stop Limit', 'Stop Market', 'Take Profit Limit', 'Take Profit Market']);
  });
});
