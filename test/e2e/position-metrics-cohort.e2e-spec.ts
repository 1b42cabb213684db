import { describe, expect, it } from '@jest/globals';
import { BASE, iso, ADDRESS, at, expectedMetric, invalid, tampered, usePositionMetricsSuite } from '../support/position-metrics.fixture.js';

describe('position metrics', () => {
  const { suite, updates, newestFirst } = usePositionMetricsSuite();
  const { get } = suite;

  describe('GET /position-metrics/coin/{coin}/segment/{segment}', () => {
    it('seeds the open times the model assumes (first seen, or the opening fill)', async () => {
      const rows: Array<{ address: string; coin: string; open_time: Date }> = await suite.dataSource.query(
        `SELECT address, coin, open_time FROM positions WHERE close_time IS NULL ORDER BY address, coin`,
      );
      const last = updates.at(-1)!;
      const expected = last.positions
        .map((p) => ({ address: ADDRESS[p.wallet], coin: p.coin, open_time: new Date(p.openTime) }))
        .sort((a, b) => (a.address + a.coin < b.address + b.coin ? -1 : 1));
      expect(rows).toEqual(expected);
    });

    it('gives one row per state update, newest first, each recomputed from the seeded positions', async () => {
      const res = await get(`${BASE}/coin/BTC/segment/1`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ metrics: newestFirst.map((u) => expectedMetric(u, 'BTC', 1, 'all')), nextCursor: null });
      // By hand at u1: Fish holds A's 0.5 long and C's 0.2 short at mark 90125.25; funding -0.35 * szi each.
      expect(res.body.metrics.at(-1)).toEqual({
        createdAt: '2026-11-10T01:00:00.000Z',
        coin: 'BTC',
        segmentId: 1,
        positionCount: 2,
        positionCountLong: 1,
        totalPositionValue: 63087.675,
        totalPositionValueLong: 45062.625,
        totalFunding: -0.105,
        totalUnrealizedPnl: 37.575,
        totalPositionSize: 0.7,
        totalPositionSizeLong: 0.5,
      });
    });

    it('reads zeros for an update where the cohort held nothing in the coin', async () => {
      const zeros = (time: number, cohortId: number) => ({
        createdAt: iso(time),
        coin: 'BTC',
        segmentId: cohortId,
        positionCount: 0,
        positionCountLong: 0,
        totalPositionValue: 0,
        totalPositionValueLong: 0,
        totalFunding: 0,
        totalUnrealizedPnl: 0,
        totalPositionSize: 0,
        totalPositionSizeLong: 0,
      });
      // At u5 no Fish holds BTC: A left it at u3, C closed at u5.
      const fish = await get(`${BASE}/coin/BTC/segment/1?start=${iso(at(5))}&end=${iso(at(5))}`);
      expect(fish.body).toEqual({ metrics: [zeros(at(5), 1)], nextCursor: null });
      // No wallet is Smart Money (9): a zeros row at every update.
      const smart = await get(`${BASE}/coin/BTC/segment/9`);
      expect(smart.body).toEqual({ metrics: newestFirst.map((u) => zeros(u.at, 9)), nextCursor: null });
    });

    it('counts only positions opened within the timeframe before each snapshot, the 24-hour bound included', async () => {
      const dolphins = await get(`${BASE}/coin/BTC/segment/2?positionRecencyTimeframe=24h`);
      expect(dolphins.status).toBe(200);
      expect(dolphins.body.metrics).toEqual(newestFirst.map((u) => expectedMetric(u, 'BTC', 2, '24h')));
      const byTime = new Map(
        dolphins.body.metrics.map((m: { createdAt: string; positionCount: number }) => [m.createdAt, m.positionCount]),
      );
      // B's BTC long opened at u1: counted at u7, exactly 24 hours later, with C's (opened at u6); not at u8.
      expect([byTime.get(iso(at(7))), byTime.get(iso(at(8)))]).toEqual([2, 1]);

      // B's ETH short was opened by a fill at T0+2h and first seen at u2 (T0+6h): at u9 (T0+30h) it is 28 hours old.
      const grinders = await get(`${BASE}/coin/ETH/segment/10?positionRecencyTimeframe=24h`);
      const eth = new Map(grinders.body.metrics.map((m: { createdAt: string; positionCount: number }) => [m.createdAt, m.positionCount]));
      expect([eth.get(iso(at(8))), eth.get(iso(at(9)))]).toEqual([1, 0]);

      // D's BTC long was opened by a fill 8 days before T0: outside 7d, inside 30d.
      const shrimp7d = await get(`${BASE}/coin/BTC/segment/16?positionRecencyTimeframe=7d`);
      expect(shrimp7d.body.metrics.map((m: { positionCount: number }) => m.positionCount)).toEqual(Array(12).fill(0));
      const shrimp30d = await get(`${BASE}/coin/BTC/segment/16?positionRecencyTimeframe=30d`);
      expect(shrimp30d.body.metrics.map((m: { positionCount: number }) => m.positionCount)).toEqual(Array(12).fill(1));
    });

    it('matches the recomputed rows for every timeframe, coin and held cohort', async () => {
      for (const timeframe of ['all', '24h', '7d', '30d'] as const) {
        for (const coin of ['BTC', 'ETH'] as const) {
          for (const cohortId of [1, 2, 10, 11, 12, 16]) {
            const query = timeframe === 'all' ? '' : `?positionRecencyTimeframe=${timeframe}`;
            const res = await get(`${BASE}/coin/${coin}/segment/${cohortId}${query}`);
            expect({ timeframe, coin, cohortId, body: res.body }).toEqual({
              timeframe,
              coin,
              cohortId,
              body: { metrics: newestFirst.map((u) => expectedMetric(u, coin, cohortId, timeframe)), nextCursor: null },
            });
          }
        }
      }
    });

    it('filters on start and end, both inclusive', async () => {
      const between = await get(`${BASE}/coin/BTC/segment/2?start=${iso(at(3))}&end=${iso(at(8))}`);
      expect(between.body).toEqual({
        metrics: [8, 7, 6, 5, 4, 3].map((k) => expectedMetric(updates[k - 1]!, 'BTC', 2, 'all')),
        nextCursor: null,
      });
      // One millisecond inside either bound leaves that update out.
      const inside = await get(`${BASE}/coin/BTC/segment/2?start=${iso(at(3) + 1)}&end=${iso(at(8) - 1)}`);
      expect(inside.body.metrics.map((m: { createdAt: string }) => m.createdAt)).toEqual([7, 6, 5, 4].map((k) => iso(at(k))));
      const from = await get(`${BASE}/coin/BTC/segment/2?start=${iso(at(11))}`);
      expect(from.body.metrics.map((m: { createdAt: string }) => m.createdAt)).toEqual([iso(at(12)), iso(at(11))]);
      // A date-time without an offset is UTC.
      const until = await get(`${BASE}/coin/BTC/segment/2?end=2026-11-10T06:00:00`);
      expect(until.body.metrics.map((m: { createdAt: string }) => m.createdAt)).toEqual([iso(at(2)), iso(at(1))]);
    });

    it('walks every page with a small limit: each row exactly once, newest first', async () => {
      for (const [query, expected] of [
        ['limit=5', newestFirst],
        [`limit=2&start=${iso(at(2))}&end=${iso(at(8))}&positionRecencyTimeframe=24h`, newestFirst.filter((u) => u.k >= 2 && u.k <= 8)],
      ] as const) {
        const timeframe = query.includes('24h') ? '24h' : 'all';
        const seen: unknown[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const res = await get(`${BASE}/coin/BTC/segment/1?${query}${cursor ? `&nextCursor=${encodeURIComponent(cursor)}` : ''}`);
          expect(res.status).toBe(200);
          seen.push(...res.body.metrics);
          cursor = res.body.nextCursor;
          pages += 1;
        } while (cursor !== null);
        const limit = Number(/limit=(\d+)/.exec(query)![1]);
        expect(pages).toBe(Math.ceil(expected.length / limit));
        expect(seen).toEqual(expected.map((u) => expectedMetric(u, 'BTC', 1, timeframe)));
      }
    });

    it('takes the coin case-insensitively and answers with its stored spelling', async () => {
      const res = await get(`${BASE}/coin/btc/segment/1?limit=1`);
      expect(res.status).toBe(200);
      expect(res.body.metrics).toEqual([expectedMetric(updates[11]!, 'BTC', 1, 'all')]);
    });

    it('answers an unknown coin or cohort with 404', async () => {
      const coin = await get(`${BASE}/coin/DOGE/segment/1`);
      expect([coin.status, coin.body]).toEqual([404, { status: 'error', message: 'Unknown coin: DOGE' }]);
      for (const cohort of ['17', '0', '-3']) {
        const res = await get(`${BASE}/coin/BTC/segment/${cohort}`);
        expect([res.status, res.body]).toEqual([404, { status: 'error', message: `Unknown segment: ${cohort}` }]);
      }
    });

    it.each([
      ['segment/x', [{ field: 'segment', message: 'segment must be an integer number' }]],
      ['segment/1.5', [{ field: 'segment', message: 'segment must be an integer number' }]],
      ['segment/1?limit=0', [{ field: 'limit', message: 'limit must not be less than 1' }]],
      ['segment/1?limit=501', [{ field: 'limit', message: 'limit must not be greater than 500' }]],
      ['segment/1?limit=x', [{ field: 'limit', message: 'limit must be an integer number' }]],
      [
        'segment/1?positionRecencyTimeframe=1h',
        [{ field: 'positionRecencyTimeframe', message: 'positionRecencyTimeframe must be one of the following values: all, 24h, 7d, 30d' }],
      ],
      [
        'segment/1?start=yesterday',
        [{ field: 'start', message: 'start must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)' }],
      ],
      ['segment/1?start=2026-11-12T00:00:00Z&end=2026-11-11T23:59:59.999Z', [{ field: 'end', message: 'end must not be before start' }]],
      [
        'segment/1?nextCursor=garbage',
        [{ field: 'nextCursor', message: 'nextCursor is not a cursor this list issued (malformed); start again without it' }],
      ],
      ['segment/1?offset=5', [{ field: 'offset', message: 'property offset should not exist' }]],
    ])('answers %s with a 400 naming the field', async (path, errors) => {
      const res = await get(`${BASE}/coin/BTC/${path}`);
      expect([res.status, res.body]).toEqual([400, invalid(errors)]);
    });

    it('refuses a tampered cursor, and a cursor of the market-wide list, with a 400', async () => {
      const { nextCursor } = (await get(`${BASE}/coin/BTC/segment/1?limit=2`)).body;
      const message = 'nextCursor is not a cursor this list issued (signature does not match); start again without it';
      const altered = await get(`${BASE}/coin/BTC/segment/1?limit=2&nextCursor=${encodeURIComponent(tampered(nextCursor, [at(6)]))}`);
      expect([altered.status, altered.body]).toEqual([400, invalid([{ field: 'nextCursor', message }])]);
      const general = (await get(`${BASE}/general?limit=2`)).body.nextCursor;
      const foreign = await get(`${BASE}/coin/BTC/segment/1?nextCursor=${encodeURIComponent(general)}`);
      expect([foreign.status, foreign.body]).toEqual([400, invalid([{ field: 'nextCursor', message }])]);
    });
  });
});
