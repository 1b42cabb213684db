import { describe, expect, it } from '@jest/globals';
import { dumpOrderTables } from '#testing';
import {
  at,
  iso,
  A,
  B,
  C,
  BUILDER,
  S,
  tp,
  BATCHES,
  dataSource,
  writer,
  snapshots,
  snapshotRows,
  openAt,
  clearOrderState,
  useOrdersDatabase,
} from './open-orders.db-fixture.js';

useOrdersDatabase();

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
