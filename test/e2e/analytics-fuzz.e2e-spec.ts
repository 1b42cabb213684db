import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { MarketStateWriter } from '#market';
import { address, exchangeState, positionState, startedWriter, walletState } from '#testing';
import { ApiHarness } from '../support/api-harness.js';

/**
 * Every analytics route and the query fields it documents. Path parameters take the values of `{segmentId}`
 * and `{coin}` (a snapshot time, timeframe, builder or address slot uses the `{coin}` values, hostile all the same).
 */
const ROUTES: Array<{ path: string; query: string[] }> = [
  { path: '/api/external/fills/liquidation', query: ['limit', 'coin', 'address', 'side', 'start', 'end', 'nextCursor'] },
  { path: '/api/external/{segmentId}/assets/liquidation-risk', query: ['offset', 'limit'] },
  { path: '/api/external/segments/{segmentId}/summary', query: ['positionAge'] },
  { path: '/api/external/positions/heatmap', query: ['openedWithin'] },
  {
    path: '/api/external/position-metrics/coin/{coin}/segment/{segmentId}',
    query: ['start', 'end', 'limit', 'nextCursor', 'positionRecencyTimeframe'],
  },
  { path: '/api/external/position-metrics/coin/{coin}', query: ['positionRecencyTimeframe'] },
  { path: '/api/external/position-metrics/general', query: ['limit', 'nextCursor', 'start', 'end'] },
  { path: '/api/external/positions', query: ['limit', 'coin', 'nextCursor', 'address', 'start', 'end', 'open', 'segmentId'] },
  { path: '/api/external/coin/{coin}/open-positions/history', query: ['start', 'end', 'limit'] },
  { path: '/api/external/exports/coins/{coin}/liquidation-heatmap', query: [] },
  { path: '/api/external/exports/total-wallets-equity-chart-data', query: [] },
  { path: '/api/external/exports/coins/{coin}/position-breakdown-by-size', query: [] },
  { path: '/api/external/positions/open/coin/{coin}', query: [] },
  { path: '/api/external/orders/5m-snapshots/latest-snapshot-timestamp', query: [] },
  {
    path: '/api/external/orders/5m-snapshots/latest',
    query: ['limit', 'nextCursor', 'coin', 'address', 'oid', 'start', 'end', 'orderType'],
  },
  {
    path: '/api/external/orders/5m-snapshots/{coin}',
    query: ['limit', 'nextCursor', 'coin', 'address', 'oid', 'start', 'end', 'orderType'],
  },
  { path: '/api/external/wallets', query: ['offset', 'limit', 'order', 'orderBy', 'segmentIds', 'hasOpenPositions', 'address'] },
  { path: '/api/external/closed-trades', query: ['address', 'startTime', 'endTime', 'limit', 'nextCursor'] },
  { path: '/api/external/closed-trades/summary', query: ['address', 'interval'] },
  { path: '/api/external/builders/list/timeframe/{coin}', query: [] },
  { path: '/api/external/builders/{coin}/profile', query: [] },
  { path: '/api/external/leaderboards/all-pnl', query: ['offset', 'limit', 'order', 'orderBy', 'rankBy'] },
  { path: '/api/external/hype/holders', query: ['offset', 'limit', 'order', 'orderBy', 'rankBy', 'rankOrder'] },
  { path: '/api/wallets/{coin}', query: [] },
  { path: '/api/segments/{segmentId}/summary', query: ['positionAge'] },
  { path: '/api/favorites/accounts', query: [] },
];

const HOSTILE = [
  '',
  ' ',
  '0',
  '-1',
  '1',
  '16',
  '17',
  '500',
  '501',
  '2.5',
  '1e309',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  'false',
  '[]',
  '{}',
  'BTC',
  'btc',
  'xyz:TSLA',
  'A',
  'B',
  'all',
  '24h',
  '7d',
  '30d',
  '2026-11-20',
  '2026-11-20T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '2026-11-20T00:00:00',
  '9999-12-31T23:59:59Z',
  '2026-11-20T00:05:00.000Z',
  '24h',
  'pnlDay',
  'totalEquity',
  'last50',
  'Limit',
  'Stop Market',
  '4,5',
  'desc',
  '-271821-04-20T00:00:00Z',
  `0x${'a'.repeat(40)}`,
  `0x${'A'.repeat(40)}`,
  `0x${'a'.repeat(40)},0x${'b'.repeat(40)}`,
  "'; DROP TABLE fills; --",
  '%00',
  '\u0000',
  '../../etc/passwd',
  'eyJhIjoxfQ.AAAAAAAAAAAAAAAAAAAAAA',
  '9'.repeat(400),
  '🐋',
];

const value = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer().map(String),
);

function query(fields: string[]) {
  const key = fields.length
    ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) })
    : fc.string({ maxLength: 12 });
  return fc.array(fc.tuple(key, value), { maxLength: 5 });
}

describe('analytics routes under random and hostile input', () => {
  let api: ApiHarness;
  let dataSource: DataSource;
  let exportDir: string;

  beforeAll(async () => {
    exportDir = mkdtempSync(join(tmpdir(), 'tidewatch-fuzz-exports-'));
    api = await ApiHarness.start({ env: { EXPORT_DIR: exportDir } });
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
    const states = await startedWriter(dataSource, MarketStateWriter);
    const t0 = Date.UTC(2026, 10, 20);
    for (const [i, px] of ['90000', '95000'].entries()) {
      await states.apply(
        exchangeState(10 + i, t0 + i * 3_600_000, [
          walletState(address(1), { positions: [positionState('BTC', { liquidationPx: px }), positionState('xyz:TSLA', { szi: '-3' })] }),
          walletState(address(2), {
            perpEquity: '250000',
            allTimePnl: '-20000',
            positions: [positionState('BTC', { szi: '-2', liquidationPx: '120000' })],
          }),
        ]),
      );
    }
  });
  afterAll(async () => {
    await dataSource.destroy();
    await api.close();
    rmSync(exportDir, { recursive: true, force: true });
  });

  it.each(ROUTES)('$path: never a 5xx, and every 400 or 404 has the documented body', async ({ path, query: fields }) => {
    // Limits the sweep cannot reach: every request is answered by the route, never by the rate limiter.
    const { token } = await api.createConsumer({ name: `fuzz ${path}`, rateLimitPerMinute: 1_000_000, usageLimit: 1_000_000_000 });
    const pathValue = fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom('1', '4', '16', 'BTC', 'btc', 'xyz:TSLA', address(1), '2026-11-20T00:00:00.000Z', '7d') },
      { weight: 3, arbitrary: value },
    );
    const check = async (p1: string, p2: string, pairs: Array<[string, string]>) => {
      const url = path.replace('{segmentId}', encodeURIComponent(p1 || '_')).replace('{coin}', encodeURIComponent(p2 || '_'));
      const search = new URLSearchParams(pairs).toString();
      const res = await api.get(search ? `${url}?${search}` : url, token);
      expect([200, 302, 400, 404].includes(res.status) ? 'documented' : `${res.status} for ${url}?${search}`).toBe('documented');
      if (res.status === 400) {
        expect(res.body).toEqual({ status: 'error', message: expect.any(String), errors: expect.any(Array) });
        expect(res.body.errors.length).toBeGreaterThan(0);
        for (const e of res.body.errors) expect(e).toEqual({ field: expect.any(String), message: expect.any(String) });
      }
      if (res.status === 404) expect(res.body).toEqual({ status: 'error', message: expect.any(String) });
    };
    // Every hostile value once in each path parameter and each query field, then random combinations.
    for (const hostile of HOSTILE) {
      await check(hostile, hostile, []);
      for (const field of fields) await check('1', 'BTC', [[field, hostile]]);
    }
    await fc.assert(fc.asyncProperty(pathValue, pathValue, query(fields), check), { numRuns: 60 });
  });
});
