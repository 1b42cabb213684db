import { describe, expect, it } from '@jest/globals';
import { fed, fillLine, limitOrder, startedWriter, statusLine } from '#testing';
import { ExchangeFactsWriter } from '../facts/exchange-facts.writer.js';
import {
  at,
  iso,
  DAY,
  A,
  B,
  S,
  F,
  o1,
  o4,
  o5,
  dataSource,
  writer,
  snapshotRows,
  openAt,
  clearOrderState,
  useOrdersDatabase,
} from './open-orders.db-fixture.js';

useOrdersDatabase();

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
