import { describe, expect, it } from '@jest/globals';
import { COHORTS } from '#market';
import {
  BASE,
  HOUR,
  DAY,
  T0,
  iso,
  type Coin,
  type Timeframe,
  UPDATES,
  at,
  seededUpdates,
  expectedSeriesRows,
  expectedMarket,
  invalid,
  tampered,
  usePositionMetricsSuite,
} from '../support/position-metrics.fixture.js';

describe('position metrics', () => {
  const { suite, updates, newestFirst, applyUpdate } = usePositionMetricsSuite();
  const { get } = suite;

  describe('GET /position-metrics/coin/{coin}', () => {
    /** u12 (the latest), then per 12-hour boundary: Nov 13 00:00 -> u11 (on it); Nov 12 12:00, 00:00 and Nov 11 12:00 -> u9 (once); Nov 11 00:00 -> u6; Nov 10 12:00 -> u4 (on it); Nov 10 00:00: before u1. */
    const PICKED = [12, 11, 9, 6, 4];
    const COHORT_ORDER = [16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
    const COLUMNS = ['positionCount', 'positionCountLong', 'totalPositionValue', 'totalPositionValueLong', 'bias', 'timestamp'];

    const expectedSeries = (coin: Coin, picked: number[], timeframe: Timeframe, all = updates) => ({
      coin,
      data: COHORT_ORDER.map((id) => ({
        segment: COHORTS.find((s) => s.id === id),
        metrics: {
          columns: COLUMNS,
          data: expectedSeriesRows(
            picked.map((k) => all[k - 1]!),
            coin,
            id,
            timeframe,
          ),
        },
      })),
    });

    it('gives every cohort the latest update, then the newest update at or before each 12-hour UTC boundary', async () => {
      const res = await get(`${BASE}/coin/BTC`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expectedSeries('BTC', PICKED, 'all'));
      expect(res.body.data[0].metrics.data.map((row: unknown[]) => row[5])).toEqual([
        '2026-11-13T08:00:00.000Z',
        '2026-11-13T00:00:00.000Z',
        '2026-11-11T06:00:00.000Z',
        '2026-11-10T20:00:00.000Z',
        '2026-11-10T12:00:00.000Z',
      ]);
      // By hand at u12: Dolphins hold B's 1.5 long and C's 0.4 short, a long share by value of 1.5 / 1.9; Fish hold A's long only.
      const dolphins = res.body.data.find((d: { segment: { id: number } }) => d.segment.id === 2).metrics.data[0];
      expect(dolphins).toEqual([2, 1, 173855.7, 137254.5, 15 / 19, '2026-11-13T08:00:00.000Z']);
      const fish = res.body.data.find((d: { segment: { id: number } }) => d.segment.id === 1).metrics.data[0];
      expect(fish[4]).toBe(1);
      // A cohort without value has a null bias.
      const smart = res.body.data.find((d: { segment: { id: number } }) => d.segment.id === 9).metrics.data;
      expect(smart).toEqual(PICKED.map((k) => [0, 0, 0, 0, null, iso(at(k))]));
    });

    it('restricts each snapshot to the positions opened within positionRecencyTimeframe, and takes the coin in any case', async () => {
      for (const timeframe of ['24h', '7d', '30d'] as const) {
        const res = await get(`${BASE}/coin/eth?positionRecencyTimeframe=${timeframe}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(expectedSeries('ETH', PICKED, timeframe));
      }
    });

    it('answers an unknown coin with 404 and bad parameters with 400', async () => {
      const unknown = await get(`${BASE}/coin/DOGE`);
      expect([unknown.status, unknown.body]).toEqual([404, { status: 'error', message: 'Unknown coin: DOGE' }]);
      const timeframe = await get(`${BASE}/coin/BTC?positionRecencyTimeframe=12h`);
      expect([timeframe.status, timeframe.body]).toEqual([
        400,
        invalid([
          { field: 'positionRecencyTimeframe', message: 'positionRecencyTimeframe must be one of the following values: all, 24h, 7d, 30d' },
        ]),
      ]);
      const limit = await get(`${BASE}/coin/BTC?limit=5`);
      expect([limit.status, limit.body]).toEqual([400, invalid([{ field: 'limit', message: 'property limit should not exist' }])]);
    });
  });

  describe('GET /position-metrics/general', () => {
    it('gives the market-wide snapshot of every update, newest first, recomputed from the seeded positions', async () => {
      const res = await get(`${BASE}/general`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ metrics: newestFirst.map(expectedMarket), nextCursor: null });
      // By hand at u1: four BTC positions (0.5, 1, -0.2, 0.01) at 90125.25; the three longs are in profit.
      expect(res.body.metrics.at(-1)).toEqual({
        id: 1,
        createdAt: '2026-11-10T01:00:00.000Z',
        count: 4,
        countLong: 3,
        countShort: 1,
        openInterest: 154114.1775,
        openInterestLong: 136089.1275,
        openInterestShort: 18025.05,
        perpEquity: 22100,
        countInProfit: 3,
      });
    });

    it('filters on start and end, both inclusive', async () => {
      const res = await get(`${BASE}/general?start=${iso(at(4))}&end=${iso(at(9))}`);
      expect(res.body).toEqual({ metrics: [9, 8, 7, 6, 5, 4].map((k) => expectedMarket(updates[k - 1]!)), nextCursor: null });
      const inside = await get(`${BASE}/general?start=${iso(at(4) + 1)}&end=${iso(at(9) - 1)}`);
      expect(inside.body.metrics.map((m: { id: number }) => m.id)).toEqual([8, 7, 6, 5]);
    });

    it('walks every page with a small limit (a numeric string): each snapshot exactly once, newest first', async () => {
      const seen: unknown[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await get(`${BASE}/general?limit=5${cursor ? `&nextCursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status).toBe(200);
        expect(res.body.metrics.length).toBe(pages < 2 ? 5 : 2);
        seen.push(...res.body.metrics);
        cursor = res.body.nextCursor;
        pages += 1;
      } while (cursor !== null);
      expect(pages).toBe(3);
      expect(seen).toEqual(newestFirst.map(expectedMarket));
    });

    it.each([
      ['limit=0', [{ field: 'limit', message: 'limit must not be less than 1' }]],
      ['limit=501', [{ field: 'limit', message: 'limit must not be greater than 500' }]],
      ['limit=x', [{ field: 'limit', message: 'limit must be an integer number' }]],
      [
        'end=2026-13-01T00:00:00Z',
        [{ field: 'end', message: 'end must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)' }],
      ],
      ['start=2026-11-12T00:00:00.001Z&end=2026-11-12T00:00:00Z', [{ field: 'end', message: 'end must not be before start' }]],
      [
        'nextCursor=abc.def',
        [
          {
            field: 'nextCursor',
            message: 'nextCursor is not a cursor this list issued (signature does not match); start again without it',
          },
        ],
      ],
      ['coin=BTC', [{ field: 'coin', message: 'property coin should not exist' }]],
    ])('answers ?%s with a 400 naming the field', async (query, errors) => {
      const res = await get(`${BASE}/general?${query}`);
      expect([res.status, res.body]).toEqual([400, invalid(errors)]);
    });

    it('refuses a tampered cursor with a 400', async () => {
      const { nextCursor } = (await get(`${BASE}/general?limit=3`)).body;
      const res = await get(`${BASE}/general?nextCursor=${encodeURIComponent(tampered(nextCursor, [at(12)]))}`);
      expect([res.status, res.body]).toEqual([
        400,
        invalid([
          {
            field: 'nextCursor',
            message: 'nextCursor is not a cursor this list issued (signature does not match); start again without it',
          },
        ]),
      ]);
    });
  });

  it('documents the three routes, their parameters and the bias in Swagger', async () => {
    const doc = (await suite.api.http.get('/docs-json')).body as {
      paths: Record<
        string,
        { get: { description?: string; parameters: Array<{ name: string; in: string; schema: { enum?: string[]; type?: string } }> } }
      >;
    };
    const params = (path: string) => doc.paths[path]!.get.parameters.map((p) => `${p.in}:${p.name}`).sort();
    expect(params('/api/external/position-metrics/coin/{coin}/segment/{segment}')).toEqual([
      'path:coin',
      'path:segment',
      'query:end',
      'query:limit',
      'query:nextCursor',
      'query:positionRecencyTimeframe',
      'query:start',
    ]);
    expect(params('/api/external/position-metrics/coin/{coin}')).toEqual(['path:coin', 'query:positionRecencyTimeframe']);
    expect(params('/api/external/position-metrics/general')).toEqual(['query:end', 'query:limit', 'query:nextCursor', 'query:start']);
    expect(doc.paths['/api/external/position-metrics/coin/{coin}']!.get.description).toContain(
      '`bias` = totalPositionValueLong / totalPositionValue',
    );
    const generalLimit = doc.paths['/api/external/position-metrics/general']!.get.parameters.find((p) => p.name === 'limit')!;
    expect(generalLimit.schema.type).toBe('string');
  });

  // These add updates, so they run last.
  describe('after later updates', () => {
    it('does not repeat the latest update when it sits on a 12-hour boundary', async () => {
      const u13 = T0 + 84 * HOUR; // 2026-11-13 12:00 UTC
      const holdings = {
        A: { BTC: '0.25' },
        B: { BTC: '2' },
        C: { BTC: '-0.4' },
        D: { BTC: '0.01' },
      } satisfies (typeof UPDATES)[number]['holdings'];
      UPDATES.push({ at: u13, holdings });
      await applyUpdate(13, u13, holdings);
      const all = seededUpdates(13);
      const res = await get(`${BASE}/coin/BTC`);
      // Nov 13 12:00 -> u13 itself (already the latest row), Nov 13 00:00 -> u11, then as before: u12 is no longer picked.
      expect(res.body).toEqual({
        coin: 'BTC',
        data: [16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map((id) => ({
          segment: COHORTS.find((s) => s.id === id),
          metrics: {
            columns: ['positionCount', 'positionCountLong', 'totalPositionValue', 'totalPositionValueLong', 'bias', 'timestamp'],
            data: expectedSeriesRows(
              [13, 11, 9, 6, 4].map((k) => all[k - 1]!),
              'BTC',
              id,
              'all',
            ),
          },
        })),
      });
    });

    it('ends the market-wide list at now unless end is given', async () => {
      const future = Date.now() + DAY;
      const holdings = {
        A: { BTC: '0.25' },
        B: { BTC: '2' },
        C: { BTC: '-0.4' },
        D: { BTC: '0.01' },
      } satisfies (typeof UPDATES)[number]['holdings'];
      UPDATES.push({ at: future, holdings });
      await applyUpdate(14, future, holdings);
      const all = seededUpdates(14);
      const byDefault = await get(`${BASE}/general?limit=1`);
      expect(byDefault.body.metrics).toEqual([expectedMarket(all[12]!)]);
      const later = await get(`${BASE}/general?limit=1&end=${iso(future)}`);
      expect(later.body.metrics).toEqual([expectedMarket(all[13]!)]);
    });
  });
});
