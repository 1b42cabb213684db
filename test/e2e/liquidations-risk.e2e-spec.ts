import { describe, expect, it } from '@jest/globals';
import { FILLS, risk, badRequest } from '../support/liquidations.fixture.js';
import { percent, seedLiquidations } from '../support/liquidation-positions.fixture.js';
import { useSeededApi } from '../support/seeded-api.js';

describe('Liquidations', () => {
  const suite = useSeededApi({ name: 'liquidations-suite' }, seedLiquidations);
  const { get } = suite;

  describe('GET /api/external/{segmentId}/assets/liquidation-risk', () => {
    it('sums the open positions of the cohort per coin: at risk from 75 % of the way to liquidation', async () => {
      const res = await get(risk(2));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        totalCount: 5,
        items: [
          { coin: 'SOL', totalValue: 500, riskValue: 0, percentRisk: 0 },
          // Equal totals: coin ascending.
          { coin: 'AVAX', totalValue: 420, riskValue: 420, percentRisk: 100 },
          { coin: 'DOGE', totalValue: 420, riskValue: 0, percentRisk: 0 },
          { coin: 'ETH', totalValue: 392.498, riskValue: 277.5, percentRisk: percent('277.5', '392.498') },
          { coin: 'BTC', totalValue: 294.001, riskValue: 224, percentRisk: percent('224', '294.001') },
        ],
      });
      expect(res.body.items[3].percentRisk).toBe(70.7009972);
      expect(res.body.items[4].percentRisk).toBe(76.19021704);
    });

    it('reads pnl cohorts by the pnl cohort of each wallet, and size cohorts by the size cohort', async () => {
      expect((await get(risk(11))).body).toEqual({
        totalCount: 2,
        items: [
          { coin: 'BTC', totalValue: 1890.001, riskValue: 1820, percentRisk: percent('1820', '1890.001') },
          { coin: 'DOGE', totalValue: 420, riskValue: 0, percentRisk: 0 },
        ],
      });
      // W6 moved from Dolphin to Fish at the last update: it counts where it is now.
      expect((await get(risk(1))).body).toEqual({
        totalCount: 1,
        items: [{ coin: 'BTC', totalValue: 1820, riskValue: 1820, percentRisk: 100 }],
      });
      // W2's HYPE position closed at the last update.
      expect((await get(risk(13))).body).toEqual({
        totalCount: 3,
        items: [
          { coin: 'AVAX', totalValue: 420, riskValue: 420, percentRisk: 100 },
          { coin: 'ETH', totalValue: 277.5, riskValue: 277.5, percentRisk: 100 },
          { coin: 'BTC', totalValue: 54, riskValue: 54, percentRisk: 100 },
        ],
      });
    });

    it('gives a percentage of 0 for a coin whose total value is 0', async () => {
      const zero = { totalCount: 1, items: [{ coin: 'ETH', totalValue: 0, riskValue: 0, percentRisk: 0 }] };
      expect((await get(risk(5))).body).toEqual(zero);
      expect((await get(risk(9))).body).toEqual(zero);
    });

    it('pages with offset and limit, totalCount counting every coin', async () => {
      expect((await get(risk(2, '?offset=1&limit=2'))).body).toEqual({
        totalCount: 5,
        items: [
          { coin: 'AVAX', totalValue: 420, riskValue: 420, percentRisk: 100 },
          { coin: 'DOGE', totalValue: 420, riskValue: 0, percentRisk: 0 },
        ],
      });
      expect((await get(risk(2, '?limit=1'))).body.items.map((i: { coin: string }) => i.coin)).toEqual(['SOL']);
      expect((await get(risk(2, '?offset=4&limit=500'))).body.items.map((i: { coin: string }) => i.coin)).toEqual(['BTC']);
      expect((await get(risk(2, '?offset=5'))).body).toEqual({ totalCount: 5, items: [] });
      expect((await get(risk(2, '?offset=1000'))).body).toEqual({ totalCount: 5, items: [] });
    });

    it('answers a cohort without wallets, or whose wallets hold no open position, with no items', async () => {
      expect((await get(risk(7))).body).toEqual({ totalCount: 0, items: [] });
      expect((await get(risk(8))).body).toEqual({ totalCount: 0, items: [] });
      expect((await get(risk(8, '?offset=3&limit=1'))).body).toEqual({ totalCount: 0, items: [] });
    });

    it.each([17, 0, -1, 99])('answers cohort %s with a 404 naming it', async (cohortId) => {
      const res = await get(risk(cohortId));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', message: `Unknown segmentId: ${cohortId} (cohorts are 1 to 16)` });
    });

    it.each([
      ['abc', '', [{ field: 'segmentId', message: 'segmentId must be an integer number' }]],
      ['1.5', '', [{ field: 'segmentId', message: 'segmentId must be an integer number' }]],
      ['0x2', '', [{ field: 'segmentId', message: 'segmentId must be an integer number' }]],
      ['2', '?limit=0', [{ field: 'limit', message: 'limit must not be less than 1' }]],
      ['2', '?limit=501', [{ field: 'limit', message: 'limit must not be greater than 500' }]],
      ['2', '?limit=abc', [{ field: 'limit', message: 'limit must be an integer number' }]],
      ['2', '?offset=-1', [{ field: 'offset', message: 'offset must not be less than 0' }]],
      ['2', '?offset=x', [{ field: 'offset', message: 'offset must be an integer number' }]],
      ['2', '?coin=BTC', [{ field: 'coin', message: 'property coin should not exist' }]],
    ])('answers /%s/assets/liquidation-risk%s with a 400 naming the field', async (cohortId, query, errors) => {
      const res = await get(risk(cohortId, query));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest(errors));
    });
  });

  it('documents both routes in the OpenAPI document', async () => {
    const doc = (await suite.api.http.get('/docs-json')).body as {
      paths: Record<string, { get?: { parameters?: Array<{ name: string }> } }>;
    };
    expect(doc.paths[FILLS]?.get?.parameters?.map((p) => p.name).sort()).toEqual([
      'address',
      'coin',
      'end',
      'limit',
      'nextCursor',
      'side',
      'start',
    ]);
    expect(doc.paths['/api/external/{segmentId}/assets/liquidation-risk']?.get?.parameters?.map((p) => p.name).sort()).toEqual([
      'limit',
      'offset',
      'segmentId',
    ]);
  });
});
