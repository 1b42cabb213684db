import { beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { HEATMAP, type Window, WINDOWS, seed, num, expectedHeatmap, badRequest } from '../support/cohorts.fixture.js';
import { useSeededApi } from '../support/seeded-api.js';

describe('cohort summary and positions heatmap', () => {
  const suite = useSeededApi({ name: 'cohorts-suite' });

  describe('over seeded state updates', () => {
    beforeAll(async () => {
      await seed(suite.dataSource);
    });

    describe('GET /api/external/positions/heatmap', () => {
      it('gives every coin its totals and 16 cohort entries, exactly (default openedWithin = all)', async () => {
        const res = await suite.api.get(HEATMAP, suite.token);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.body).toEqual(expectedHeatmap('all'));
        expect((await suite.api.get(`${HEATMAP}?openedWithin=all`, suite.token)).body).toEqual(res.body);
        // By total value, descending; ARB, AVAX and xyz:NVDA tie at 250 and go by coin; closed xyz:TSLA nowhere.
        expect(res.body.heatmap.map((c: { coin: string }) => c.coin)).toEqual(['BTC', 'ETH', 'SOL', 'ARB', 'AVAX', 'xyz:NVDA', 'DOGE']);
        for (const coin of res.body.heatmap) {
          expect(coin.segments.map((s: { segmentId: number }) => s.segmentId)).toEqual([
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
          ]);
        }
      });

      it('counts a position once in its coin and in both its cohorts', async () => {
        const btc = (await suite.api.get(HEATMAP, suite.token)).body.heatmap[0];
        expect(btc).toMatchObject({
          coin: 'BTC',
          totalValue: 1042700.3,
          totalLongValue: 1030700.1,
          totalShortValue: 12000.2,
          count: 4,
          countLong: 3,
          countShort: 1,
        });
        const cell = (id: number) => btc.segments[id - 1];
        // W7's long is a Leviathan's and a Money Printer's.
        const w7 = {
          coin: 'BTC',
          totalValue: 1000000,
          totalLongValue: 1000000,
          totalShortValue: 0,
          count: 1,
          countLong: 1,
          countShort: 0,
          bias: 1,
        };
        expect(cell(7)).toEqual({ segmentId: 7, ...w7 });
        expect(cell(8)).toEqual({ segmentId: 8, ...w7 });
        // Dolphins: W1's 30000.1 long and W2's 12000.2 short; bias is the long share of the value.
        expect(cell(2)).toEqual({
          segmentId: 2,
          coin: 'BTC',
          totalValue: 42000.3,
          totalLongValue: 30000.1,
          totalShortValue: 12000.2,
          count: 2,
          countLong: 1,
          countShort: 1,
          bias: num(new Big('30000.1').div('42000.3').round(8, Big.roundHalfUp)),
        });
        expect(cell(3)).toEqual({
          segmentId: 3,
          coin: 'BTC',
          totalValue: 0,
          totalLongValue: 0,
          totalShortValue: 0,
          count: 0,
          countLong: 0,
          countShort: 0,
          bias: null,
        });
      });

      it.each(WINDOWS)('keeps the positions opened within %s, edges included', async (window) => {
        const res = await suite.api.get(`${HEATMAP}?openedWithin=${window}`, suite.token);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(expectedHeatmap(window));
      });

      it('puts the window edges where they belong', async () => {
        const coins = async (window: Window) =>
          Object.fromEntries(
            (await suite.api.get(`${HEATMAP}?openedWithin=${window}`, suite.token)).body.heatmap.map(
              (c: { coin: string; count: number }) => [c.coin, c.count],
            ),
          );
        // 24h: W1's BTC opened exactly 24 h before counts, W2's 1 ms older does not; xyz:TSLA, opened 2 h before, is closed.
        expect(await coins('24h')).toEqual({ BTC: 2, SOL: 1, ARB: 1, AVAX: 1, 'xyz:NVDA': 1, DOGE: 1 });
        // 7d: W3's ETH opened exactly 7 days before counts, W8's 1 ms older does not.
        expect(await coins('7d')).toEqual({ BTC: 3, ETH: 1, SOL: 1, ARB: 1, AVAX: 1, 'xyz:NVDA': 1, DOGE: 1 });
        // 30d: W5's BTC opened exactly 30 days before counts, its DOGE of 31 days does not.
        expect(await coins('30d')).toEqual({ BTC: 4, ETH: 3, SOL: 1, ARB: 1, AVAX: 1, 'xyz:NVDA': 1, DOGE: 1 });
        expect(await coins('all')).toEqual({ BTC: 4, ETH: 3, SOL: 1, ARB: 1, AVAX: 1, 'xyz:NVDA': 1, DOGE: 2 });
      });

      it.each([
        ['openedWithin=1y', [{ field: 'openedWithin', message: 'openedWithin must be one of the following values: all, 24h, 7d, 30d' }]],
        ['openedWithin=', [{ field: 'openedWithin', message: 'openedWithin must be one of the following values: all, 24h, 7d, 30d' }]],
        ['positionAge=24h', [{ field: 'positionAge', message: 'property positionAge should not exist' }]],
        ['coin=BTC', [{ field: 'coin', message: 'property coin should not exist' }]],
      ])('answers ?%s with a 400 naming the field', async (query, errors) => {
        const res = await suite.api.get(`${HEATMAP}?${query}`, suite.token);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(badRequest(errors));
      });
    });
  });
});
