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

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
}

/**
 * Every analytics route (each GET under /api) and the query fields it documents, read from the api's own
 * OpenAPI document, so a new route is swept without a change here. A cohort slot (`{segmentId}`,
 * `{segment}`) takes the first path value, every other slot (coin, snapshot time, timeframe, builder,
 * address) the second, hostile all the same.
 */
function analyticsRoutes(document: OpenApiDocument): Array<{ path: string; query: string[] }> {
  return Object.entries(document.paths)
    .filter(([path, operations]) => path.startsWith('/api/') && operations.get)
    .map(([path, operations]) => ({
      path,
      query: (operations.get!.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
    }));
}

// The route list is the running api's document, so the api starts before the tests are declared.
const exportDir = mkdtempSync(join(tmpdir(), 'tidewatch-fuzz-exports-'));
const api = await ApiHarness.start({ env: { EXPORT_DIR: exportDir } });
const ROUTES = analyticsRoutes((await api.http.get('/docs-json')).body as OpenApiDocument);

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
  let dataSource: DataSource;

  beforeAll(async () => {
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
      const url = path.replace(/\{(\w+)\}/g, (_, slot: string) => encodeURIComponent((slot.startsWith('segment') ? p1 : p2) || '_'));
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
