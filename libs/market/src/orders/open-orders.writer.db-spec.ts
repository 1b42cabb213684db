import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import {
  allOpenAt,
  dumpOrderTables,
  fed,
  fillLine,
  limitOrder,
  openFactsDatabase,
  startedWriter,
  statusLine,
  type TestPosition,
  useTestEnvironment,
} from '#testing';
import type { FeedBlock } from '../facts/exchange-facts.types.js';
import { ExchangeFactsWriter } from '../facts/exchange-facts.writer.js';
import { OrderSnapshotsQueries } from '../read/orders/order-snapshots.queries.js';
import type { WireOrder } from '#exchange';

const config = useTestEnvironment();
const T0 = Date.UTC(2026, 2, 2, 10, 0);
const at = (minutes: number, seconds = 0, ms = 0) => T0 + minutes * 60_000 + seconds * 1000 + ms;
const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 24 * 3_600_000;

const A = `0x${'1'.repeat(40)}`;
const B = `0x${'2b'.repeat(20)}`;
const C = `0x${'3'.repeat(40)}`;
const BUILDER = `0x${'b'.repeat(40)}`;
const S = 'node_order_statuses_by_block';
const F = 'node_fills_by_block';

const o1 = limitOrder({
  coin: 'BTC',
  side: 'B',
  limitPx: '60000.0',
  sz: '2.0',
  oid: 1001,
  timestamp: at(0, 10),
  cloid: '0x0000000000000000000000000000c1d1',
});
const o2: WireOrder = {
  ...limitOrder({ coin: 'ETH', side: 'A', limitPx: '2700.0', sz: '1.5', oid: 1002, timestamp: at(0, 10) }),
  triggerCondition: 'Price below 3000.0',
  isTrigger: true,
  triggerPx: '3000.0',
  reduceOnly: true,
  orderType: 'Stop Market',
  tif: null,
};
const tp: WireOrder = {
  ...limitOrder({ coin: 'SOL', side: 'A', limitPx: '170.0', sz: '10.0', oid: 2003, timestamp: at(0, 20) }),
  triggerCondition: 'Price above 170.0',
  isTrigger: true,
  triggerPx: '170.0',
  reduceOnly: true,
  orderType: 'Take Profit Market',
  tif: null,
};
const o3 = limitOrder({
  coin: 'SOL',
  side: 'B',
  limitPx: '150.25',
  sz: '10.0',
  oid: 1003,
  timestamp: at(0, 20),
  tif: 'Alo',
  children: [tp],
});
const o4 = limitOrder({ coin: 'BTC', side: 'A', limitPx: '61000.0', sz: '3.0', oid: 1004, timestamp: at(7) });
const o5 = limitOrder({ coin: 'ETH', side: 'B', limitPx: '2900.0', sz: '1.0', oid: 1005, timestamp: at(8) });
const o6 = limitOrder({ coin: 'ETH', side: 'A', limitPx: '3100.0', sz: '4.0', oid: 1006, timestamp: at(10) });
const o7 = limitOrder({ coin: 'SOL', side: 'A', limitPx: '160.0', sz: '5.0', oid: 1007, timestamp: at(16) });
const o8 = limitOrder({ coin: 'BTC', side: 'B', limitPx: '59000.0', sz: '0.1', oid: 1008, timestamp: at(31) });

// Three batches as the node feed would hand them over: the status stream runs ahead of the fills stream
// in the first two, the third jumps over four boundaries (10:15 to 10:30).
const BATCHES: FeedBlock<TestPosition>[][] = [
  [
    fed(
      S,
      statusLine(100, at(0, 10), [
        { user: A, status: 'open', order: o1 },
        { user: B, status: 'open', order: o2, builder: { b: BUILDER, f: 25 } },
      ]),
    ),
    fed(S, statusLine(101, at(0, 20), [{ user: C, status: 'open', order: o3 }])),
    fed(
      F,
      fillLine(102, at(1), [
        { user: A, oid: 1001, sz: '0.5', tid: 1 },
        { user: C, oid: 9001, sz: '0.5', tid: 1, side: 'A' },
      ]),
    ),
    fed(S, statusLine(106, at(6), [{ user: C, status: 'canceled', order: o3 }])),
  ],
  [
    fed(F, fillLine(106, at(6), [{ user: A, oid: 1001, sz: '0.25', tid: 2 }])),
    // Placed and partly filled in one block: the status still shows the whole size.
    fed(F, fillLine(107, at(7), [{ user: A, oid: 1004, sz: '1.0', tid: 3, side: 'A' }])),
    fed(
      S,
      statusLine(107, at(7), [
        { user: B, status: 'triggered', order: o2, builder: { b: BUILDER, f: 25 } },
        { user: A, status: 'open', order: o4 },
      ]),
    ),
    fed(S, statusLine(108, at(8), [{ user: B, status: 'open', order: o5 }])),
    fed(S, statusLine(109, at(9, 59, 999), [{ user: B, status: 'canceled', order: o5 }])),
    fed(S, statusLine(113, at(10), [{ user: C, status: 'open', order: o6 }])),
  ],
  [
    fed(F, fillLine(120, at(11), [{ user: A, oid: 1001, sz: '1.25', tid: 4 }])),
    fed(S, statusLine(121, at(16), [{ user: A, status: 'open', order: o7 }])),
    fed(S, statusLine(122, at(26), [{ user: A, status: 'canceled', order: o7 }])),
    fed(F, fillLine(130, at(31), [{ user: B, oid: 9002, sz: '1.0', tid: 5 }])),
    fed(S, statusLine(130, at(31), [{ user: B, status: 'open', order: o8 }])),
  ],
];

let dataSource: DataSource;
let writer: ExchangeFactsWriter;
const snapshots = new OrderSnapshotsQueries();

const snapshotRows = async () =>
  (await dataSource.query(`SELECT snapshot_ts, height::int, order_count FROM open_order_snapshots ORDER BY snapshot_ts`)).map(
    (r: { snapshot_ts: Date; height: number; order_count: number }) => [r.snapshot_ts.toISOString(), r.height, r.order_count],
  );
/** (oid, sz, height) of every order of a snapshot, in page order. */
const openAt = async (ms: number) => (await allOpenAt(dataSource, ms, 2))?.map((o) => [o.oid, o.sz, o.height]) ?? null;

async function clearOrderState(): Promise<void> {
  await dataSource.query(
    `TRUNCATE open_orders, open_order_intervals, open_order_snapshots, open_order_feeds, open_order_backlog, feed_checkpoints`,
  );
}

beforeAll(async () => {
  ({ dataSource, writer } = await openFactsDatabase(config.DATABASE_URL));
});

afterAll(async () => {
  await dataSource?.destroy();
});

describe('open orders from hl-node order statuses and fills', () => {
  it('takes no snapshot while the fills stream has not passed the boundary, and parks the blocks ahead of it', async () => {
    await writer.writeBlocks(BATCHES[0]!, 'node');
    expect(await snapshotRows()).toEqual([]);
    expect(await dataSource.query(`SELECT stream, block_number::int FROM open_order_backlog ORDER BY block_number`)).toEqual([
      { stream: S, block_number: 106 },
    ]);

    await writer.writeBlocks(BATCHES[1]!, 'node');
    // Both streams are past 10:05 now; 10:10 waits for the fills stream (at 10:07).
    expect(await snapshotRows()).toEqual([[iso(at(5)), 102, 3]]);
    expect(await dataSource.query(`SELECT block_number::int FROM open_order_backlog ORDER BY block_number`)).toEqual([
      { block_number: 108 },
      { block_number: 109 },
      { block_number: 113 },
    ]);
  });

  it('takes every boundary of a batch that jumps over several, each at its place in the batch', async () => {
    await writer.writeBlocks(BATCHES[2]!, 'node');
    expect(await snapshotRows()).toEqual([
      [iso(at(5)), 102, 3],
      [iso(at(10)), 109, 2],
      [iso(at(15)), 120, 2],
      [iso(at(20)), 121, 3],
      [iso(at(25)), 121, 3],
      [iso(at(30)), 122, 2],
    ]);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM open_order_backlog`)).toEqual([{ n: 0 }]);
  });

  it('answers "open at T" across creation, partial fills, cancel, fill to zero and trigger', async () => {
    // o1 partly filled before 10:05 and again before 10:10 (a new version each), filled to zero at 10:11;
    // o2 triggered and o3 canceled before 10:10; o4 placed with a fill in its own block.
    expect(await openAt(at(5))).toEqual([
      [1001, '1.5', 102],
      [1002, '1.5', 100],
      [1003, '10.0', 101],
    ]);
    expect(await openAt(at(10))).toEqual([
      [1001, '1.25', 106],
      [1004, '2', 107],
    ]);
    // o5 lived between two boundaries; o6 was placed at exactly 10:10:00.000, so after the 10:10 snapshot.
    expect(await openAt(at(15))).toEqual([
      [1004, '2', 107],
      [1006, '4.0', 113],
    ]);
    // Pages run by (address, oid): o7 is A's, o6 is C's.
    expect(await openAt(at(20))).toEqual([
      [1004, '2', 107],
      [1007, '5.0', 121],
      [1006, '4.0', 113],
    ]);
    expect(await openAt(at(25))).toEqual([
      [1004, '2', 107],
      [1007, '5.0', 121],
      [1006, '4.0', 113],
    ]);
    expect(await openAt(at(30))).toEqual([
      [1004, '2', 107],
      [1006, '4.0', 113],
    ]);
    // o8 is in the book but no snapshot has been taken since it was placed.
    expect(await openAt(at(35))).toBeNull();
    expect(await openAt(at(7))).toBeNull();

    const versions = await dataSource.query(
      `SELECT oid::int, sz::text, height::int, valid_from, valid_to FROM open_order_intervals ORDER BY oid, valid_from`,
    );
    expect(
      versions.map((v: { oid: number; sz: string; height: number; valid_from: Date; valid_to: Date | null }) => [
        v.oid,
        v.sz,
        v.height,
        v.valid_from.toISOString(),
        v.valid_to?.toISOString() ?? null,
      ]),
    ).toEqual([
      [1001, '1.5', 102, iso(at(5)), iso(at(10))],
      [1001, '1.25', 106, iso(at(10)), iso(at(15))],
      [1002, '1.5', 100, iso(at(5)), iso(at(10))],
      [1003, '10.0', 101, iso(at(5)), iso(at(10))],
      [1004, '2', 107, iso(at(10)), null],
      [1006, '4.0', 113, iso(at(15)), null],
      [1007, '5.0', 121, iso(at(20)), iso(at(30))],
    ]);
    // The book: gone orders left with the snapshot that closed them; o8 waits for 10:35.
    expect(await dataSource.query(`SELECT oid::int, sz::text, gone, pending_for FROM open_orders ORDER BY oid`)).toEqual([
      { oid: 1004, sz: '2', gone: false, pending_for: new Date(at(10)) },
      { oid: 1006, sz: '4.0', gone: false, pending_for: new Date(at(15)) },
      { oid: 1008, sz: '0.1', gone: false, pending_for: new Date(at(35)) },
    ]);
  });

  it('gives the full Open-order record of the API contract', async () => {
    const page = await snapshots.openAt(dataSource, iso(at(5)), { address: B.toUpperCase().replace('0X', '0x') }, 10, null);
    expect(page).toEqual({
      snapshot: { snapshotTs: iso(at(5)), height: 102, orderCount: 3 },
      nextCursor: null,
      orders: [
        {
          height: 100,
          address: B,
          oid: 1002,
          coin: 'ETH',
          side: 'A',
          limitPx: '2700.0',
          sz: '1.5',
          origSz: '1.5',
          timestamp: iso(at(0, 10)),
          triggerCondition: 'Price below 3000.0',
          isTrigger: true,
          triggerPx: '3000.0',
          children: [],
          isPositionTpsl: false,
          reduceOnly: true,
          orderType: 'Stop Market',
          tif: '',
          cloid: '',
          status: 'open',
          builder: BUILDER,
          builderFee: 25,
          untriggered: true,
          snapshotTs: iso(at(5)),
        },
      ],
    });
    const [withChild] = (await snapshots.openAt(dataSource, iso(at(5)), { oid: 1003 }, 10, null))!.orders;
    expect(withChild).toMatchObject({
      address: C,
      limitPx: '150.25',
      tif: 'Alo',
      cloid: '',
      builder: '',
      builderFee: 0,
      untriggered: false,
      children: [tp],
    });
    const [plain] = (await snapshots.openAt(dataSource, iso(at(5)), { oid: 1001 }, 10, null))!.orders;
    expect(plain).toMatchObject({
      cloid: '0x0000000000000000000000000000c1d1',
      triggerCondition: 'N/A',
      triggerPx: '0.0',
      origSz: '2.0',
      sz: '1.5',
    });
  });

  it('filters by coin, address, oid, order type and creation time, and pages by (address, oid)', async () => {
    const oids = async (ms: number, filters: object, limit = 10) =>
      (await snapshots.openAt(dataSource, ms, filters, limit, null))!.orders.map((o) => o.oid);
    expect(await oids(at(20), { coin: 'SOL' })).toEqual([1007]);
    expect(await oids(at(20), { address: A })).toEqual([1004, 1007]);
    expect(await oids(at(20), { address: A, coin: 'BTC' })).toEqual([1004]);
    expect(await oids(at(5), { orderType: 'Limit' })).toEqual([1001, 1003]);
    expect(await oids(at(5), { orderType: 'Stop Market' })).toEqual([1002]);
    expect(await oids(at(5), { start: iso(at(0, 15)) })).toEqual([1003]);
    expect(await oids(at(5), { end: at(0, 10) })).toEqual([1001, 1002]);
    expect(await oids(at(5), { oid: 1004 })).toEqual([]);

    const first = await snapshots.openAt(dataSource, at(20), {}, 2, null);
    expect(first!.orders.map((o) => o.oid)).toEqual([1004, 1007]);
    expect(first!.nextCursor).toEqual({ address: A, oid: 1007 });
    const second = await snapshots.openAt(dataSource, at(20), {}, 2, first!.nextCursor);
    expect(second!.orders.map((o) => o.oid)).toEqual([1006]);
    expect(second!.nextCursor).toBeNull();
    expect(await snapshots.latestSnapshot(dataSource)).toEqual({ snapshotTs: iso(at(30)), height: 122, orderCount: 2 });
  });

  it('leaves identical tables when the same blocks are written again, with or without the feed checkpoints', async () => {
    const before = await dumpOrderTables(dataSource);
    await writer.writeBlocks(BATCHES.flat(), 'node');
    expect(await dumpOrderTables(dataSource)).toEqual(before);
    await dataSource.query(`DELETE FROM feed_checkpoints`);
    await writer.writeBlocks(BATCHES.flat(), 'node');
    expect(await dumpOrderTables(dataSource)).toEqual(before);
  });

  it('gives the same tables whatever the batches (one batch, one block per batch)', async () => {
    const reference = await dumpOrderTables(dataSource);
    await clearOrderState();
    await writer.writeBlocks(BATCHES.flat(), 'node');
    expect(await dumpOrderTables(dataSource)).toEqual(reference);
    await clearOrderState();
    for (const block of BATCHES.flat()) await writer.writeBlocks([block], 'node');
    expect(await dumpOrderTables(dataSource)).toEqual(reference);
  });

  it('keeps nothing of a batch whose transaction failed, and the batch read again gives the same tables', async () => {
    const reference = await dumpOrderTables(dataSource);
    await clearOrderState();
    await writer.writeBlocks(BATCHES[0]!, 'node');
    const afterFirst = await dumpOrderTables(dataSource);
    // The checkpoint write, the last of the transaction, fails on a position it cannot compare.
    const poisoned = BATCHES[1]!.map((b) => ({ ...b, position: { ...b.position, lastBlock: 'not a block' as unknown as number } }));
    await expect(writer.writeBlocks(poisoned, 'node')).rejects.toThrow('bigint');
    expect(await dumpOrderTables(dataSource)).toEqual(afterFirst);
    await writer.writeBlocks(BATCHES[1]!, 'node');
    await writer.writeBlocks(BATCHES[2]!, 'node');
    expect(await dumpOrderTables(dataSource)).toEqual(reference);
  });
});

describe('the book kept in memory by a writer', () => {
  it('after a transaction rolled back behind the book, reads the book again: the batch read again moves it as the first time', async () => {
    await clearOrderState();
    const own = await startedWriter(dataSource, ExchangeFactsWriter);
    let failNext = false;
    // Runs after the book's step, in the same transaction.
    own.steps.register({
      name: 'failing-step',
      run: async () => {
        if (!failNext) return;
        failNext = false;
        throw new Error('step failed');
      },
    });
    await own.writeBlocks(
      [fed(S, statusLine(100, at(0, 10), [{ user: A, status: 'open', order: o1 }])), fed(F, fillLine(100, at(0, 10), []))],
      'node',
    );
    const cancel = [fed(S, statusLine(107, at(7), [{ user: A, status: 'canceled', order: o1 }])), fed(F, fillLine(107, at(7), []))];
    failNext = true;
    await expect(own.writeBlocks(cancel, 'node')).rejects.toThrow('step failed');
    expect(await dataSource.query(`SELECT oid::int, gone FROM open_orders`)).toEqual([{ oid: 1001, gone: false }]);
    await own.writeBlocks(cancel, 'node');
    expect(await dataSource.query(`SELECT oid::int, gone FROM open_orders`)).toEqual([{ oid: 1001, gone: true }]);
  });

  it('reads the book again when another writer moved it meanwhile: its orders are then filled and removed', async () => {
    await clearOrderState();
    const other = await startedWriter(dataSource, ExchangeFactsWriter);
    // Both streams move together, so every block is applied at once. The other writer places o4 and o5.
    await writer.writeBlocks(
      [fed(S, statusLine(100, at(0, 10), [{ user: A, status: 'open', order: o1 }])), fed(F, fillLine(100, at(0, 10), []))],
      'node',
    );
    await other.writeBlocks(
      [
        fed(
          S,
          statusLine(107, at(7), [
            { user: A, status: 'open', order: o4 },
            { user: B, status: 'open', order: o5 },
          ]),
        ),
        fed(F, fillLine(107, at(7), [])),
      ],
      'node',
    );
    // This writer, which never saw them, fills o4 and cancels o5.
    await writer.writeBlocks(
      [
        fed(S, statusLine(120, at(12), [{ user: B, status: 'canceled', order: o5 }])),
        fed(F, fillLine(120, at(12), [{ user: A, oid: 1004, sz: '1.0', tid: 9, side: 'A' }])),
      ],
      'node',
    );
    expect(await dataSource.query(`SELECT oid::int, sz::text, gone FROM open_orders WHERE oid IN (1004, 1005) ORDER BY oid`)).toEqual([
      { oid: 1004, sz: '2.0', gone: false },
      { oid: 1005, sz: '1.0', gone: true },
    ]);
  });
});

describe('30-day retention, in exchange time', () => {
  const r1 = limitOrder({ coin: 'BTC', side: 'B', limitPx: '50000.0', sz: '1.0', oid: 3001, timestamp: at(0, 10) });
  const r2 = limitOrder({ coin: 'BTC', side: 'B', limitPx: '50001.0', sz: '1.0', oid: 3002, timestamp: at(0, 10) });
  const r3 = limitOrder({ coin: 'BTC', side: 'B', limitPx: '50002.0', sz: '1.0', oid: 3003, timestamp: at(0, 10) });
  const r4 = limitOrder({ coin: 'BTC', side: 'B', limitPx: '50003.0', sz: '1.0', oid: 3004, timestamp: at(30 * 24 * 60 + 10, 30) });

  it('drops exactly the snapshots older than 30 days before the newest and the versions only they showed', async () => {
    await clearOrderState();
    await writer.writeBlocks(
      [
        fed(
          S,
          statusLine(
            100,
            at(0, 10),
            [r1, r2, r3].map((order) => ({ user: A, status: 'open', order })),
          ),
        ),
        fed(F, fillLine(101, at(1), [{ user: B, oid: 9100, sz: '1.0', tid: 100 }])),
        fed(S, statusLine(107, at(7), [{ user: A, status: 'canceled', order: r1 }])),
        fed(S, statusLine(112, at(12), [{ user: A, status: 'canceled', order: r2 }])),
        fed(F, fillLine(112, at(12, 30), [{ user: B, oid: 9101, sz: '1.0', tid: 101 }])),
      ],
      'node',
    );
    expect(await snapshotRows()).toEqual([
      [iso(at(5)), 101, 3],
      [iso(at(10)), 107, 2],
    ]);

    // Thirty days later (no order event in between): the newest snapshot is 10:10 thirty days on.
    const later = at(30 * 24 * 60 + 10, 30);
    await writer.writeBlocks(
      [
        fed(F, fillLine(900, later, [{ user: B, oid: 9102, sz: '1.0', tid: 102 }])),
        fed(S, statusLine(900, later, [{ user: A, status: 'open', order: r4 }])),
      ],
      'node',
    );
    const newest = at(10) + 30 * DAY;
    const kept: Array<{ first: Date; last: Date; n: number }> = await dataSource.query(
      `SELECT min(snapshot_ts) AS first, max(snapshot_ts) AS last, count(*)::int AS n FROM open_order_snapshots`,
    );
    // 10:05 on the first day is older than 30 days; 10:10 is exactly 30 days old and kept.
    expect(kept).toEqual([{ first: new Date(at(10)), last: new Date(newest), n: 30 * 288 + 1 }]);
    expect(await snapshotRows().then((rows) => rows.slice(0, 3))).toEqual([
      [iso(at(10)), 107, 2],
      [iso(at(15)), 112, 1],
      [iso(at(20)), 112, 1],
    ]);
    expect(await snapshotRows().then((rows) => rows.at(-1))).toEqual([iso(newest), 112, 1]);

    // r1 was last seen by the 10:05 snapshot: gone. r2 was seen by 10:10: kept. r3 is still open after 30 days.
    const versions = await dataSource.query(`SELECT oid::int, valid_from, valid_to FROM open_order_intervals ORDER BY oid`);
    expect(versions).toEqual([
      { oid: 3002, valid_from: new Date(at(5)), valid_to: new Date(at(15)) },
      { oid: 3003, valid_from: new Date(at(5)), valid_to: null },
    ]);
    expect(await openAt(at(5))).toBeNull();
    expect(await openAt(at(10))).toEqual([
      [3002, '1.0', 100],
      [3003, '1.0', 100],
    ]);
    expect(await openAt(newest)).toEqual([[3003, '1.0', 100]]);
  });
});
