import { beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import {
  HEATMAP,
  summaryPath,
  type Window,
  WINDOWS,
  SPEC_COHORTS,
  seed,
  sum,
  num,
  expectedSummary,
  ZERO_SUMMARY,
  badRequest,
} from '../support/cohorts.fixture.js';
import { useSeededApi } from '../support/seeded-api.js';

describe('cohort summary and positions heatmap', () => {
  const suite = useSeededApi({ name: 'cohorts-suite' });

  it('documents both routes, their parameters and the definitions in the OpenAPI document', async () => {
    const doc = (await suite.api.http.get('/docs-json')).body;
    const summary = doc.paths['/api/external/segments/{segmentId}/summary'].get;
    expect(summary.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'segmentId', in: 'path', required: true, schema: expect.objectContaining({ type: 'integer' }) }),
        expect.objectContaining({
          name: 'positionAge',
          in: 'query',
          required: false,
          schema: expect.objectContaining({ enum: WINDOWS, default: 'all' }),
        }),
      ]),
    );
    expect(summary.description).toContain('exposureRatio = totalValue / activePerpEquity');
    expect(Object.keys(summary.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    const heatmap = doc.paths['/api/external/positions/heatmap'].get;
    expect(heatmap.parameters).toEqual([
      expect.objectContaining({ name: 'openedWithin', in: 'query', schema: expect.objectContaining({ enum: WINDOWS, default: 'all' }) }),
    ]);
    expect(doc.components.schemas.HeatmapSegmentDto.properties.bias.description).toContain('Long share by value');
  });

  describe('before any state update', () => {
    it('gives every cohort zeros and nulls', async () => {
      for (const id of [1, 8, 16]) {
        const res = await suite.api.get(`${summaryPath(id)}?positionAge=24h`, suite.token);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(ZERO_SUMMARY(id));
      }
    });

    it('gives an empty heatmap', async () => {
      for (const window of WINDOWS) {
        const res = await suite.api.get(`${HEATMAP}?openedWithin=${window}`, suite.token);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ heatmap: [] });
      }
    });
  });

  describe('over seeded state updates', () => {
    beforeAll(async () => {
      await seed(suite.dataSource);
    });

    describe('GET /api/external/segments/{segmentId}/summary', () => {
      it('sums the Dolphins exactly (default positionAge = all)', async () => {
        const res = await suite.api.get(summaryPath(2), suite.token);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        // W1, W2 and W3 hold positions (W3's closed xyz:TSLA aside); W4 holds none. Only W1's PnL sums above 0.
        const total = sum(['30000.1', '8000.125', '12000.2', '2500.3333', '5000']);
        const long = sum(['30000.1', '2500.3333', '5000']);
        const short = sum(['8000.125', '12000.2']);
        const equity = sum(['20000', '15000.75', '40000']);
        const perpBias = num(long.minus(short).div(equity).round(8, Big.roundHalfUp));
        const exposureRatio = num(total.div(equity).round(8, Big.roundHalfUp));
        expect(num(total)).toBe(57500.7583);
        expect(res.body).toEqual({
          segment: { id: 2, name: 'Dolphin', category: 'size', criteria: { minSize: 10000, maxSize: 50000 }, emoji: '🐬' },
          openPerpsSummary: {
            perpBias,
            exposureRatio,
            countOpenPositions: 5,
            countTradersInPosition: 3,
            countTradersInProfit: 1,
            totalValue: 57500.7583,
            totalLongValue: num(long),
            totalActivePerpEquity: 75000.75,
            bySide: [
              { side: 'long', countOpenPositions: 3, totalValue: num(long) },
              { side: 'short', countOpenPositions: 2, totalValue: num(short) },
            ],
          },
          summary: {
            segmentId: 2,
            countTradersInPosition: 3,
            perpBias,
            positionValue: 57500.7583,
            positionLongValue: num(long),
            positionShortValue: num(short),
            exposureRatio,
            activePerpEquity: 75000.75,
          },
        });
        expect((await suite.api.get(`${summaryPath(2)}?positionAge=all`, suite.token)).body).toEqual(res.body);
      });

      it('matches the figures recomputed from the seed for every cohort and positionAge', async () => {
        for (const id of Array.from({ length: 16 }, (_, i) => i + 1)) {
          for (const window of WINDOWS) {
            const res = await suite.api.get(`${summaryPath(id)}?positionAge=${window}`, suite.token);
            expect([id, window, res.status]).toEqual([id, window, 200]);
            expect([id, window, res.body]).toEqual([id, window, expectedSummary(id, window)]);
          }
        }
      });

      it('keeps the wallets that opened a position within positionAge, edges included, with all their open positions', async () => {
        const traders = async (id: number, window: Window) =>
          (await suite.api.get(`${summaryPath(id)}?positionAge=${window}`, suite.token)).body.openPerpsSummary;
        // Dolphins, 24h: W1 (BTC opened exactly 24 h before) and W2 (SOL), each with both positions, W2's 1 ms too old BTC too;
        // W3 only through its xyz:TSLA, which is closed.
        expect(await traders(2, '24h')).toMatchObject({
          countTradersInPosition: 2,
          countOpenPositions: 4,
          totalValue: num(sum(['30000.1', '8000.125', '12000.2', '2500.3333'])),
        });
        // 7d adds W3, whose ETH opened exactly 7 days before.
        expect(await traders(2, '7d')).toMatchObject({ countTradersInPosition: 3, countOpenPositions: 5 });
        // Fish: W9 opened at T; W8 1 ms more than 7 days before; W5 exactly 30 days before (its DOGE 31 days).
        expect(await traders(1, '24h')).toMatchObject({ countTradersInPosition: 1, countOpenPositions: 3 });
        expect(await traders(1, '7d')).toMatchObject({ countTradersInPosition: 1, countOpenPositions: 3 });
        expect(await traders(1, '30d')).toMatchObject({ countTradersInPosition: 3, countOpenPositions: 6, totalActivePerpEquity: 1800 });
        expect(await traders(15, '7d')).toMatchObject({ countTradersInPosition: 0, countOpenPositions: 0, perpBias: null });
        expect(await traders(15, '30d')).toMatchObject({ countTradersInPosition: 1, countOpenPositions: 2 });
      });

      it('counts a wallet in its size and its pnl cohort, and never a closed position', async () => {
        const leviathans = (await suite.api.get(summaryPath(7), suite.token)).body;
        const printers = (await suite.api.get(summaryPath(8), suite.token)).body;
        expect(leviathans.openPerpsSummary).toEqual(printers.openPerpsSummary);
        expect(leviathans.summary).toMatchObject({
          countTradersInPosition: 1,
          positionValue: 1000000,
          activePerpEquity: 6000000,
          exposureRatio: 0.16666667,
          perpBias: 0.16666667,
        });
        // W3 is a Consistent Grinder with W1: its closed 90,000 xyz:TSLA is not in the sums.
        expect((await suite.api.get(summaryPath(10), suite.token)).body.summary).toMatchObject({
          countTradersInPosition: 2,
          positionValue: num(sum(['30000.1', '8000.125', '5000'])),
          positionLongValue: 35000.1,
          positionShortValue: 8000.125,
        });
      });

      it('gives null ratios when the active perp equity is not positive', async () => {
        // Shrimp: only W6, with -50 of perp equity and a 20 USD long.
        const res = await suite.api.get(summaryPath(16), suite.token);
        expect(res.body).toEqual({
          segment: SPEC_COHORTS[16],
          openPerpsSummary: {
            perpBias: null,
            exposureRatio: null,
            countOpenPositions: 1,
            countTradersInPosition: 1,
            countTradersInProfit: 1,
            totalValue: 20,
            totalLongValue: 20,
            totalActivePerpEquity: -50,
            bySide: [
              { side: 'long', countOpenPositions: 1, totalValue: 20 },
              { side: 'short', countOpenPositions: 0, totalValue: 0 },
            ],
          },
          summary: {
            segmentId: 16,
            countTradersInPosition: 1,
            perpBias: null,
            positionValue: 20,
            positionLongValue: 20,
            positionShortValue: 0,
            exposureRatio: null,
            activePerpEquity: -50,
          },
        });
      });

      it('gives zeros and nulls for a cohort without wallets', async () => {
        for (const id of [3, 13]) {
          const res = await suite.api.get(summaryPath(id), suite.token);
          expect(res.status).toBe(200);
          expect(res.body).toEqual(ZERO_SUMMARY(id));
        }
      });

      it.each([0, 17, -1, 1000])('answers cohort %s with a 404', async (id) => {
        const res = await suite.api.get(summaryPath(id), suite.token);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ status: 'error', message: `Unknown segmentId: ${id} (cohorts are 1 to 16)` });
      });

      it.each([
        [summaryPath('abc'), [{ field: 'segmentId', message: 'segmentId must be an integer number' }]],
        [summaryPath('1.5'), [{ field: 'segmentId', message: 'segmentId must be an integer number' }]],
        [summaryPath('1e1'), [{ field: 'segmentId', message: 'segmentId must be an integer number' }]],
        [
          `${summaryPath(2)}?positionAge=1h`,
          [{ field: 'positionAge', message: 'positionAge must be one of the following values: all, 24h, 7d, 30d' }],
        ],
        [
          `${summaryPath(2)}?positionAge=ALL`,
          [{ field: 'positionAge', message: 'positionAge must be one of the following values: all, 24h, 7d, 30d' }],
        ],
        [`${summaryPath(2)}?openedWithin=24h`, [{ field: 'openedWithin', message: 'property openedWithin should not exist' }]],
        [`${summaryPath(2)}?limit=5`, [{ field: 'limit', message: 'property limit should not exist' }]],
      ])('answers %s with a 400 naming the field', async (path, errors) => {
        const res = await suite.api.get(path, suite.token);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(badRequest(errors));
      });

      it('needs a token', async () => {
        const res = await suite.api.get(summaryPath(2));
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ status: 'error', message: 'Unauthorized' });
      });
    });
  });
});
