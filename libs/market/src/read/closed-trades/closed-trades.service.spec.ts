import { describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { InvalidCursorError, KeysetCursorCodec, type SqlRunner } from '#database';
import { ClosedTradesQueries } from './closed-trades.queries.js';
import { ClosedTradesService } from './closed-trades.service.js';

const T = Date.UTC(2026, 5, 28, 12);

/** A runner that records each statement and answers with the given rows. */
function fakeRunner(rows: object[]): SqlRunner & { calls: Array<{ sql: string; params: unknown[] }> } {
  const calls: Array<{ sql: string; params: unknown[] }> = [];
  return {
    calls,
    async query(sql: string, params: unknown[] = []) {
      calls.push({ sql, params });
      return rows;
    },
  };
}

const record = (closeTime: number, hash: string) => ({ hash, id: hash, address: '0xabc', coin: 'BTC', side: 'long', duration: '5', open_time: String(closeTime - 5), close_time: String(closeTime) });

const service = (runner: SqlRunner, secret = 'secret') =>
  new ClosedTradesService(runner as unknown as DataSource, new ClosedTradesQueries(), new KeysetCursorCodec(secret));

describe('ClosedTradesService.page', () => {
  it('turns the last row of a full page into an opaque cursor that continues after it', async () => {
    const first = fakeRunner([record(T, '0xc'), record(T, '0xb'), record(T - 1, '0xa')]);
    const page = await service(first).page({ address: '0xABC', limit: 2 });
    expect(page.trades.map((t) => t.hash)).toEqual(['0xc', '0xb']);
    expect(page.nextCursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(first.calls[0]!.params).toEqual(['0xabc', 3]);

    const second = fakeRunner([record(T - 1, '0xa')]);
    const last = await service(second).page({ address: '0xabc', limit: 2, nextCursor: page.nextCursor });
    expect(last).toMatchObject({ trades: [{ hash: '0xa', closeTime: T - 1 }], nextCursor: null });
    expect(second.calls[0]!.sql).toContain('(close_time, hash) < ($2, $3)');
    expect(second.calls[0]!.params).toEqual(['0xabc', new Date(T).toISOString(), '0xb', 3]);
  });

  it('refuses a tampered or foreign cursor with InvalidCursorError before reading anything', async () => {
    const runner = fakeRunner([record(T, '0xc'), record(T, '0xb')]);
    const { nextCursor } = await service(runner).page({ address: '0xabc', limit: 1 });
    const [payload, signature] = nextCursor!.split('.');
    const tampered = `${Buffer.from(JSON.stringify([T + 60_000, '0xb'])).toString('base64url')}.${signature}`;
    const refused = fakeRunner([]);
    await expect(service(refused).page({ address: '0xabc', limit: 1, nextCursor: tampered })).rejects.toThrow(InvalidCursorError);
    await expect(service(refused, 'another secret').page({ address: '0xabc', limit: 1, nextCursor })).rejects.toMatchObject({ field: 'nextCursor' });
    await expect(service(refused).page({ address: '0xabc', limit: 1, nextCursor: 'garbage' })).rejects.toThrow(InvalidCursorError);
    expect(refused.calls).toEqual([]);
    // The untouched cursor is still good.
    await expect(service(refused).page({ address: '0xabc', limit: 1, nextCursor: `${payload}.${signature}` })).resolves.toEqual({ trades: [], nextCursor: null });
  });
});
