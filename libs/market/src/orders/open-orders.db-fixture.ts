import { afterAll, beforeAll } from '@jest/globals';
import { DataSource } from 'typeorm';
import { allOpenAt, fed, fillLine, limitOrder, openFactsDatabase, statusLine, type TestPosition, useTestEnvironment } from '#testing';
import type { FeedBlock } from '../facts/exchange-facts.types.js';
import { ExchangeFactsWriter } from '../facts/exchange-facts.writer.js';
import { OrderSnapshotsQueries } from '../read/orders/order-snapshots.queries.js';
import type { WireOrder } from '#exchange';

// What the open-orders database specs share (open-orders.writer and open-orders.book-and-retention): the orders, the batches that place and fill them, and the database.

const config = useTestEnvironment();
const T0 = Date.UTC(2026, 2, 2, 10, 0);
export const at = (minutes: number, seconds = 0, ms = 0) => T0 + minutes * 60_000 + seconds * 1000 + ms;
export const iso = (ms: number) => new Date(ms).toISOString();
export const DAY = 24 * 3_600_000;

export const A = `0x${'1'.repeat(40)}`;
export const B = `0x${'2b'.repeat(20)}`;
export const C = `0x${'3'.repeat(40)}`;
export const BUILDER = `0x${'b'.repeat(40)}`;
export const S = 'node_order_statuses_by_block';
export const F = 'node_fills_by_block';

export const o1 = limitOrder({
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
export const tp: WireOrder = {
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
export const o4 = limitOrder({ coin: 'BTC', side: 'A', limitPx: '61000.0', sz: '3.0', oid: 1004, timestamp: at(7) });
export const o5 = limitOrder({ coin: 'ETH', side: 'B', limitPx: '2900.0', sz: '1.0', oid: 1005, timestamp: at(8) });
const o6 = limitOrder({ coin: 'ETH', side: 'A', limitPx: '3100.0', sz: '4.0', oid: 1006, timestamp: at(10) });
const o7 = limitOrder({ coin: 'SOL', side: 'A', limitPx: '160.0', sz: '5.0', oid: 1007, timestamp: at(16) });
const o8 = limitOrder({ coin: 'BTC', side: 'B', limitPx: '59000.0', sz: '0.1', oid: 1008, timestamp: at(31) });

// Three batches as the node feed would hand them over: the status stream runs ahead of the fills stream
// in the first two, the third jumps over four boundaries (10:15 to 10:30).
export const BATCHES: FeedBlock<TestPosition>[][] = [
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

// Set by useOrdersDatabase's beforeAll; the specs read them through the module's live bindings.
export let dataSource: DataSource;
export let writer: ExchangeFactsWriter;
export const snapshots = new OrderSnapshotsQueries();

export const snapshotRows = async () =>
  (await dataSource.query(`SELECT snapshot_ts, height::int, order_count FROM open_order_snapshots ORDER BY snapshot_ts`)).map(
    (r: { snapshot_ts: Date; height: number; order_count: number }) => [r.snapshot_ts.toISOString(), r.height, r.order_count],
  );
/** (oid, sz, height) of every order of a snapshot, in page order. */
export const openAt = async (ms: number) => (await allOpenAt(dataSource, ms, 2))?.map((o) => [o.oid, o.sz, o.height]) ?? null;

export async function clearOrderState(): Promise<void> {
  await dataSource.query(
    `TRUNCATE open_orders, open_order_intervals, open_order_snapshots, open_order_feeds, open_order_backlog, feed_checkpoints`,
  );
}

/** The open-orders specs' database, opened once with a facts writer. */
export function useOrdersDatabase(): void {
  beforeAll(async () => {
    ({ dataSource, writer } = await openFactsDatabase(config.DATABASE_URL));
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });
}
