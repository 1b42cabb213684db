import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { ExchangeFactsWriter, MarketStateWriter } from '#market';
import { address, exchangeState, feed, fillsBlock, positionState, startedWriter, walletState, wireFill } from '#testing';
import { ApiHarness } from '../support/api-harness.js';
import { SPEC_COHORTS as CONTRACT_COHORTS } from '../support/contract-cohorts.js';

const HEATMAP = '/api/external/positions/heatmap';
const summaryPath = (segmentId: number | string) => `/api/external/segments/${segmentId}/summary`;

const T = Date.UTC(2026, 2, 20, 12, 0, 0); // the latest state update's exchange time
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WINDOW_MS = { '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY } as const;
type Window = 'all' | keyof typeof WINDOW_MS;
const WINDOWS: Window[] = ['all', '24h', '7d', '30d'];

/** the API contract's cohort table, by id. */
const SPEC_COHORTS: Record<number, object> = Object.fromEntries(CONTRACT_COHORTS.map((c) => [c.id, c]));

// The seeded wallets, with their cohorts worked out by hand from the table above.
interface SeedWallet {
  address: string;
  perpEquity: string;
  allTimePnl: string;
  cohorts: [size: number, pnl: number];
}
interface SeedPosition {
  wallet: SeedWallet;
  coin: string;
  side: 'long' | 'short';
  value: string;
  upnl: string;
  /** Exchange time the position opened: a fill from zero at that time, or T when there is none (first seen then). */
  openTime: number;
  fill: boolean;
}

const W1: SeedWallet = { address: address(0x101), perpEquity: '20000', allTimePnl: '50000', cohorts: [2, 10] };
const W2: SeedWallet = { address: address(0x102), perpEquity: '15000.75', allTimePnl: '-5000', cohorts: [2, 12] };
const W3: SeedWallet = { address: address(0x103), perpEquity: '40000', allTimePnl: '50000', cohorts: [2, 10] };
const W4: SeedWallet = { address: address(0x104), perpEquity: '30000', allTimePnl: '200000', cohorts: [2, 9] };
const W5: SeedWallet = { address: address(0x105), perpEquity: '500', allTimePnl: '-2000000', cohorts: [1, 15] };
const W6: SeedWallet = { address: address(0x106), perpEquity: '-50', allTimePnl: '0', cohorts: [16, 11] };
const W7: SeedWallet = { address: address(0x107), perpEquity: '6000000', allTimePnl: '2000000', cohorts: [7, 8] };
const W8: SeedWallet = { address: address(0x108), perpEquity: '300', allTimePnl: '500', cohorts: [1, 11] };
const W9: SeedWallet = { address: address(0x109), perpEquity: '1000', allTimePnl: '0', cohorts: [1, 11] };
const WALLETS = [W1, W2, W3, W4, W5, W6, W7, W8, W9];

/** The positions open after the latest update. */
const OPEN: SeedPosition[] = [
  { wallet: W1, coin: 'BTC', side: 'long', value: '30000.1', upnl: '1200.25', openTime: T - DAY, fill: true }, // exactly 24 h before
  { wallet: W1, coin: 'ETH', side: 'short', value: '8000.125', upnl: '-300', openTime: T - 10 * DAY, fill: true },
  { wallet: W2, coin: 'BTC', side: 'short', value: '12000.2', upnl: '-50', openTime: T - DAY - 1, fill: true }, // 1 ms too old for 24h
  { wallet: W2, coin: 'SOL', side: 'long', value: '2500.3333', upnl: '10', openTime: T, fill: false },
  { wallet: W3, coin: 'ETH', side: 'long', value: '5000', upnl: '-20', openTime: T - 7 * DAY, fill: true }, // exactly 7 d before
  { wallet: W5, coin: 'BTC', side: 'long', value: '700', upnl: '5', openTime: T - 30 * DAY, fill: true }, // exactly 30 d before
  { wallet: W5, coin: 'DOGE', side: 'short', value: '100.05', upnl: '-1', openTime: T - 31 * DAY, fill: true },
  { wallet: W6, coin: 'DOGE', side: 'long', value: '20', upnl: '3', openTime: T, fill: false },
  { wallet: W7, coin: 'BTC', side: 'long', value: '1000000', upnl: '-100', openTime: T - HOUR, fill: true },
  { wallet: W8, coin: 'ETH', side: 'long', value: '50', upnl: '1', openTime: T - 7 * DAY - 1, fill: true }, // 1 ms too old for 7d
  { wallet: W9, coin: 'ARB', side: 'long', value: '250', upnl: '2', openTime: T, fill: false },
  { wallet: W9, coin: 'AVAX', side: 'short', value: '250', upnl: '-2.5', openTime: T, fill: false },
  { wallet: W9, coin: 'xyz:NVDA', side: 'long', value: '250', upnl: '0', openTime: T, fill: false },
];

const szi = (p: Pick<SeedPosition, 'side'>) => (p.side === 'long' ? '1' : '-1');
const positionOf = (p: SeedPosition) => positionState(p.coin, { szi: szi(p), positionValue: p.value, unrealizedPnl: p.upnl });

async function seed(dataSource: DataSource): Promise<void> {
  // Fills from zero set the open times (MarketStateWriter takes the newest such fill at or before the state).
  const fills = OPEN.filter((p) => p.fill).sort((a, b) => a.openTime - b.openTime);
  const blocks = fills.map((p, i) =>
    fillsBlock(1000 + i, p.openTime, [
      [
        p.wallet.address,
        wireFill({ coin: p.coin, px: '100', sz: '1', side: p.side === 'long' ? 'B' : 'A', time: p.openTime, tid: 5000 + i }),
      ],
    ]),
  );
  await (await startedWriter(dataSource, ExchangeFactsWriter)).writeBlocks(feed(blocks), 'node');

  const states = await startedWriter(dataSource, MarketStateWriter);
  const wallet = (w: SeedWallet, positions: SeedPosition[]) =>
    walletState(w.address, { perpEquity: w.perpEquity, allTimePnl: w.allTimePnl, positions: positions.map(positionOf) });
  // Two hours earlier W3 also held xyz:TSLA (first seen then, so "opened" 2 h before T): it closes at T and
  // must count nowhere, though it is the most recent position W3 ever opened.
  const tsla: SeedPosition = {
    wallet: W3,
    coin: 'xyz:TSLA',
    side: 'long',
    value: '90000',
    upnl: '500',
    openTime: T - 2 * HOUR,
    fill: false,
  };
  const w3Eth = OPEN.find((p) => p.wallet === W3 && p.coin === 'ETH')!;
  await states.apply(exchangeState(100, T - 2 * HOUR, [wallet(W3, [tsla, { ...w3Eth, value: '4000', upnl: '0' }])]));
  await states.apply(
    exchangeState(
      200,
      T,
      WALLETS.map((w) =>
        wallet(
          w,
          OPEN.filter((p) => p.wallet === w),
        ),
      ),
    ),
  );
}

// ---- the expected figures, recomputed from the seed with big.js ----

const sum = (values: string[]): Big => values.reduce((total, v) => total.plus(v), new Big(0));
const num = (value: Big): number => Number(value.toString());
const ratio = (a: Big, b: Big): number | null => (b.gt(0) ? num(a.div(b).round(8, Big.roundHalfUp)) : null);
const openedWithin = (p: SeedPosition, window: Window) => window === 'all' || p.openTime >= T - WINDOW_MS[window];
const inCohort = (w: SeedWallet, id: number) => w.cohorts.includes(id);

function expectedSummary(id: number, window: Window) {
  const traders = WALLETS.filter((w) => inCohort(w, id) && OPEN.some((p) => p.wallet === w && openedWithin(p, window)));
  const positions = OPEN.filter((p) => traders.includes(p.wallet));
  const values = (side?: 'long' | 'short') => sum(positions.filter((p) => !side || p.side === side).map((p) => p.value));
  const [total, long, short] = [values(), values('long'), values('short')];
  const equity = sum(traders.map((w) => w.perpEquity));
  const inProfit = traders.filter((w) => sum(positions.filter((p) => p.wallet === w).map((p) => p.upnl)).gt(0));
  const perpBias = ratio(long.minus(short), equity);
  const exposureRatio = ratio(total, equity);
  return {
    segment: SPEC_COHORTS[id],
    openPerpsSummary: {
      perpBias,
      exposureRatio,
      countOpenPositions: positions.length,
      countTradersInPosition: traders.length,
      countTradersInProfit: inProfit.length,
      totalValue: num(total),
      totalLongValue: num(long),
      totalActivePerpEquity: num(equity),
      bySide: [
        { side: 'long', countOpenPositions: positions.filter((p) => p.side === 'long').length, totalValue: num(long) },
        { side: 'short', countOpenPositions: positions.filter((p) => p.side === 'short').length, totalValue: num(short) },
      ],
    },
    summary: {
      segmentId: id,
      countTradersInPosition: traders.length,
      perpBias,
      positionValue: num(total),
      positionLongValue: num(long),
      positionShortValue: num(short),
      exposureRatio,
      activePerpEquity: num(equity),
    },
  };
}

function figures(positions: SeedPosition[]) {
  const value = (side?: 'long' | 'short') => sum(positions.filter((p) => !side || p.side === side).map((p) => p.value));
  const count = (side?: 'long' | 'short') => positions.filter((p) => !side || p.side === side).length;
  return {
    total: value(),
    body: {
      totalValue: num(value()),
      totalLongValue: num(value('long')),
      totalShortValue: num(value('short')),
      count: count(),
      countLong: count('long'),
      countShort: count('short'),
    },
    long: value('long'),
  };
}

function expectedHeatmap(window: Window) {
  const open = OPEN.filter((p) => openedWithin(p, window));
  const coins = [...new Set(open.map((p) => p.coin))].map((coin) => ({ coin, ...figures(open.filter((p) => p.coin === coin)) }));
  coins.sort((a, b) => b.total.cmp(a.total) || (a.coin < b.coin ? -1 : a.coin > b.coin ? 1 : 0));
  return {
    heatmap: coins.map(({ coin, body }) => ({
      coin,
      ...body,
      segments: Array.from({ length: 16 }, (_, i) => i + 1).map((segmentId) => {
        const cell = figures(open.filter((p) => p.coin === coin && inCohort(p.wallet, segmentId)));
        return { segmentId, coin, ...cell.body, bias: cell.total.eq(0) ? null : num(cell.long.div(cell.total).round(8, Big.roundHalfUp)) };
      }),
    })),
  };
}

const ZERO_SUMMARY = (id: number) => ({
  segment: SPEC_COHORTS[id],
  openPerpsSummary: {
    perpBias: null,
    exposureRatio: null,
    countOpenPositions: 0,
    countTradersInPosition: 0,
    countTradersInProfit: 0,
    totalValue: 0,
    totalLongValue: 0,
    totalActivePerpEquity: 0,
    bySide: [
      { side: 'long', countOpenPositions: 0, totalValue: 0 },
      { side: 'short', countOpenPositions: 0, totalValue: 0 },
    ],
  },
  summary: {
    segmentId: id,
    countTradersInPosition: 0,
    perpBias: null,
    positionValue: 0,
    positionLongValue: 0,
    positionShortValue: 0,
    exposureRatio: null,
    activePerpEquity: 0,
  },
});

const badRequest = (errors: Array<{ field: string; message: string }>) => ({
  status: 'error',
  message: `Invalid parameters: ${[...new Set(errors.map((e) => e.field))].join(', ')}`,
  errors,
});

describe('cohort summary and positions heatmap', () => {
  let api: ApiHarness;
  let token: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    api = await ApiHarness.start();
    ({ token } = await api.createConsumer({ name: 'cohorts-suite' }));
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await api?.close();
  });

  it('documents both routes, their parameters and the definitions in the OpenAPI document', async () => {
    const doc = (await api.http.get('/docs-json')).body;
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
        const res = await api.get(`${summaryPath(id)}?positionAge=24h`, token);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(ZERO_SUMMARY(id));
      }
    });

    it('gives an empty heatmap', async () => {
      for (const window of WINDOWS) {
        const res = await api.get(`${HEATMAP}?openedWithin=${window}`, token);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ heatmap: [] });
      }
    });
  });

  describe('over seeded state updates', () => {
    beforeAll(async () => {
      await seed(dataSource);
    });

    describe('GET /api/external/segments/{segmentId}/summary', () => {
      it('sums the Dolphins exactly (default positionAge = all)', async () => {
        const res = await api.get(summaryPath(2), token);
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
        expect((await api.get(`${summaryPath(2)}?positionAge=all`, token)).body).toEqual(res.body);
      });

      it('matches the figures recomputed from the seed for every cohort and positionAge', async () => {
        for (const id of Array.from({ length: 16 }, (_, i) => i + 1)) {
          for (const window of WINDOWS) {
            const res = await api.get(`${summaryPath(id)}?positionAge=${window}`, token);
            expect([id, window, res.status]).toEqual([id, window, 200]);
            expect([id, window, res.body]).toEqual([id, window, expectedSummary(id, window)]);
          }
        }
      });

      it('keeps the wallets that opened a position within positionAge, edges included, with all their open positions', async () => {
        const traders = async (id: number, window: Window) =>
          (await api.get(`${summaryPath(id)}?positionAge=${window}`, token)).body.openPerpsSummary;
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
        const leviathans = (await api.get(summaryPath(7), token)).body;
        const printers = (await api.get(summaryPath(8), token)).body;
        expect(leviathans.openPerpsSummary).toEqual(printers.openPerpsSummary);
        expect(leviathans.summary).toMatchObject({
          countTradersInPosition: 1,
          positionValue: 1000000,
          activePerpEquity: 6000000,
          exposureRatio: 0.16666667,
          perpBias: 0.16666667,
        });
        // W3 is a Consistent Grinder with W1: its closed 90,000 xyz:TSLA is not in the sums.
        expect((await api.get(summaryPath(10), token)).body.summary).toMatchObject({
          countTradersInPosition: 2,
          positionValue: num(sum(['30000.1', '8000.125', '5000'])),
          positionLongValue: 35000.1,
          positionShortValue: 8000.125,
        });
      });

      it('gives null ratios when the active perp equity is not positive', async () => {
        // Shrimp: only W6, with -50 of perp equity and a 20 USD long.
        const res = await api.get(summaryPath(16), token);
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
          const res = await api.get(summaryPath(id), token);
          expect(res.status).toBe(200);
          expect(res.body).toEqual(ZERO_SUMMARY(id));
        }
      });

      it.each([0, 17, -1, 1000])('answers cohort %s with a 404', async (id) => {
        const res = await api.get(summaryPath(id), token);
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
        const res = await api.get(path, token);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(badRequest(errors));
      });

      it('needs a token', async () => {
        const res = await api.get(summaryPath(2));
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ status: 'error', message: 'Unauthorized' });
      });
    });

    describe('GET /api/external/positions/heatmap', () => {
      it('gives every coin its totals and 16 cohort entries, exactly (default openedWithin = all)', async () => {
        const res = await api.get(HEATMAP, token);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.body).toEqual(expectedHeatmap('all'));
        expect((await api.get(`${HEATMAP}?openedWithin=all`, token)).body).toEqual(res.body);
        // By total value, descending; ARB, AVAX and xyz:NVDA tie at 250 and go by coin; closed xyz:TSLA nowhere.
        expect(res.body.heatmap.map((c: { coin: string }) => c.coin)).toEqual(['BTC', 'ETH', 'SOL', 'ARB', 'AVAX', 'xyz:NVDA', 'DOGE']);
        for (const coin of res.body.heatmap) {
          expect(coin.segments.map((s: { segmentId: number }) => s.segmentId)).toEqual([
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
          ]);
        }
      });

      it('counts a position once in its coin and in both its cohorts', async () => {
        const btc = (await api.get(HEATMAP, token)).body.heatmap[0];
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
        const res = await api.get(`${HEATMAP}?openedWithin=${window}`, token);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(expectedHeatmap(window));
      });

      it('puts the window edges where they belong', async () => {
        const coins = async (window: Window) =>
          Object.fromEntries(
            (await api.get(`${HEATMAP}?openedWithin=${window}`, token)).body.heatmap.map((c: { coin: string; count: number }) => [
              c.coin,
              c.count,
            ]),
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
        const res = await api.get(`${HEATMAP}?${query}`, token);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(badRequest(errors));
      });
    });
  });
});
