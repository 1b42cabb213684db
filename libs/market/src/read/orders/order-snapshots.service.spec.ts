import { describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { InvalidCursorError, KeysetCursorCodec, type SqlRunner } from '#database';
import { OrderSnapshotsQueries } from './order-snapshots.queries.js';
import { OrderSnapshotsService } from './order-snapshots.service.js';

const AT = '2026-03-02T10:05:00.000Z';
const snapshot = { snapshot_ts: new Date(AT), height: '102', order_count: 3 };
const order = (address: string, oid: string) => ({ address, oid, timestamp: new Date(AT), height: '100', is_trigger: false, tif: null, cloid: null, builder: null, builder_fee: null });

/** Answers the snapshot look-up, then the page's rows; records each statement. */
function fakeRunner(rows: object[]): SqlRunner & { calls: Array<{ sql: string; params: unknown[] }> } {
  const calls: Array<{ sql: string; params: unknown[] }> = [];
  return {
    calls,
    async query(sql: string, params: unknown[] = []) {
      calls.push({ sql, params });
      return calls.length === 1 ? [snapshot] : rows;
    },
  };
}

const codec = new KeysetCursorCodec('secret');
const service = (runner: SqlRunner) => new OrderSnapshotsService(runner as unknown as DataSource, new OrderSnapshotsQueries(), codec);

describe('OrderSnapshotsService.page', () => {
  it('continues after the (address, oid) an opaque cursor carries, with the filters on both halves of the read', async () => {
    const first = await service(fakeRunner([order('0xa', '1'), order('0xa', '2'), order('0xb', '1')])).page(AT, {}, 2);
    expect(first!.orders.map((o) => [o.address, o.oid])).toEqual([['0xa', 1], ['0xa', 2]]);
    const runner = fakeRunner([order('0xb', '1')]);
    const second = await service(runner).page(AT, { coin: 'BTC' }, 2, first!.nextCursor);
    expect(second).toMatchObject({ orders: [{ address: '0xb', oid: 1 }], nextCursor: null });
    const { sql, params } = runner.calls[1]!;
    expect(sql.match(/\(valid_from <= \$1\) AND \(coin = \$2\) AND \(address, oid\) > \(\$3, \$4\)/g)).toHaveLength(2);
    expect(params).toEqual([AT, 'BTC', '0xa', 2, AT, 3]);
  });

  it('refuses a cursor it did not issue, or one of another list, before reading anything', async () => {
    const runner = fakeRunner([]);
    const foreign = codec.encode('closed-trades', ['0xa', 2]);
    const [, signature] = codec.encode('order-snapshots', ['0xa', 2]).split('.');
    const tampered = `${Buffer.from(JSON.stringify(['0xb', 2])).toString('base64url')}.${signature}`;
    await expect(service(runner).page(AT, {}, 2, foreign)).rejects.toThrow(InvalidCursorError);
    await expect(service(runner).page(AT, {}, 2, tampered)).rejects.toThrow(InvalidCursorError);
    expect(runner.calls).toEqual([]);
  });
});
