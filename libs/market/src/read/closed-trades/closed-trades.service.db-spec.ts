import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { dataSourceOptions, InvalidCursorError, KeysetCursorCodec } from '#database';
import { resetDatabase, useTestEnvironment } from '#testing';
import { ClosedTradesQueries } from './closed-trades.queries.js';
import { ClosedTradesService } from './closed-trades.service.js';

const config = useTestEnvironment();
const T = Date.UTC(2026, 5, 28, 12);
const A = '0x00000000000000000000000000000000000000ab';
let dataSource: DataSource;

/** A stored trade of A closed at `closeMs`, as the projector writes it (only what paging reads matters). */
async function storeTrade(hash: string, closeMs: number): Promise<void> {
  await dataSource.query(
    `INSERT INTO closed_trades (hash, id, address, coin, side, avg_entry, avg_exit, duration, open_time, close_time, partial, total_size,
                                total_usd, realized_pnl_usd, count_fills, fee, fee_usd, funding_usd, carried_size, exit_size, exit_usd)
     VALUES ($1, $1, $2, 'BTC', 'long', 100, 101, 5, $3, $4, false, 1, 100, 1, 2, 0.1, 0.1, 0, 0, 1, 101)`,
    [hash, A, new Date(closeMs - 5).toISOString(), new Date(closeMs).toISOString()],
  );
}

const service = (secret = 'test-secret') => new ClosedTradesService(dataSource, new ClosedTradesQueries(), new KeysetCursorCodec(secret));

beforeAll(async () => {
  await resetDatabase(config.DATABASE_URL);
  dataSource = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
  await storeTrade('0xc', T);
  await storeTrade('0xb', T);
  await storeTrade('0xa', T - 1);
});

afterAll(async () => {
  await dataSource?.destroy();
});

describe('ClosedTradesService.page', () => {
  it('walks a wallet newest first, ties by hash, with an opaque cursor after the last row of each page', async () => {
    const first = await service().page({ address: A.toUpperCase().replace('0X', '0x'), limit: 2 });
    expect(first.trades.map((t) => [t.hash, t.closeTime])).toEqual([
      ['0xc', T],
      ['0xb', T],
    ]);
    expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    const last = await service().page({ address: A, limit: 2, nextCursor: first.nextCursor });
    expect(last.trades.map((t) => [t.hash, t.closeTime])).toEqual([['0xa', T - 1]]);
    expect(last.nextCursor).toBeNull();
  });

  it('refuses an altered, foreign or malformed cursor as a 400 on nextCursor', async () => {
    const { nextCursor } = await service().page({ address: A, limit: 1 });
    const [, signature] = nextCursor!.split('.');
    const altered = `${Buffer.from(JSON.stringify([T + 60_000, '0xc'])).toString('base64url')}.${signature}`;
    await expect(service().page({ address: A, limit: 1, nextCursor: altered })).rejects.toThrow(InvalidCursorError);
    await expect(service('another secret').page({ address: A, limit: 1, nextCursor })).rejects.toMatchObject({ field: 'nextCursor' });
    await expect(service().page({ address: A, limit: 1, nextCursor: 'garbage' })).rejects.toThrow(InvalidCursorError);
    expect((await service().page({ address: A, limit: 1, nextCursor })).trades.map((t) => t.hash)).toEqual(['0xb']);
  });
});
