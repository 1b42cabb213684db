import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { ExchangeFactsWriter, MarketStateWriter, SEGMENTS } from '#market';
import { address, exchangeState, feed, fillsBlock, positionState, startedWriter, walletState, wireFill } from '#testing';
import { ApiHarness } from '../support/api-harness.js';

const BASE = '/api/external/position-metrics';
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** 2026-11-10 00:00 UTC, a 12-hour boundary; every seeded time is relative to it. */
const T0 = Date.UTC(2026, 10, 10);
const iso = (ms: number) => new Date(ms).toISOString();
const num = (x: Big) => Number(x.toString());

type Wallet = 'A' | 'B' | 'C' | 'D';
type Coin = 'BTC' | 'ETH';
type Timeframe = 'all' | '24h' | '7d' | '30d';
const WALLETS: Wallet[] = ['A', 'B', 'C', 'D'];
const ADDRESS: Record<Wallet, string> = { A: address(0xa1), B: address(0xb2), C: address(0xc3), D: address(0xd4) };
const PNL: Record<Wallet, string> = { A: '0', B: '50000', C: '-5000', D: '0' };

/**
 * Cohorts by hand from the contract's table: A Fish (1) and Humble Earner (11); B Dolphin (2) and
 * Consistent Grinder (10); C Exit Liquidity (12), a Fish (1) until its equity grows to 30,000 at the sixth
 * update, a Dolphin (2) after; D Shrimp (16) and Humble Earner (11).
 */
const equity = (wallet: Wallet, k: number): string => ({ A: '1000', B: '20000', C: k < 6 ? '1000' : '30000', D: '100' })[wallet];
const cohorts = (wallet: Wallet, k: number): number[] => ({ A: [1, 11], B: [2, 10], C: k < 6 ? [1, 12] : [2, 12], D: [16, 11] })[wallet];

/**
 * The state updates (k = 1..12), over more than three days of exchange time: positions open, close and
 * flip; A leaves BTC at u3 and comes back at u6; C flips short to long at u4, closes at u5, reopens at u6
 * and flips again at u10; u10 comes after a 31-hour gap. u7 is exactly 24 hours after u1.
 */
const UPDATES: Array<{ at: number; holdings: Partial<Record<Wallet, Partial<Record<Coin, string>>>> }> = [
  /* u1 */ { at: T0 + HOUR, holdings: { A: { BTC: '0.5' }, B: { BTC: '1' }, C: { BTC: '-0.2' }, D: { BTC: '0.01' } } },
  /* u2 */ { at: T0 + 6 * HOUR, holdings: { A: { BTC: '0.5' }, B: { BTC: '1', ETH: '-2' }, C: { BTC: '-0.2' }, D: { BTC: '0.01' } } },
  /* u3 */ {
    at: T0 + 11 * HOUR + 45 * MIN,
    holdings: { A: { ETH: '1.5' }, B: { BTC: '1', ETH: '-2' }, C: { BTC: '-0.2' }, D: { BTC: '0.01' } },
  },
  /* u4 */ { at: T0 + 12 * HOUR, holdings: { A: { ETH: '1.5' }, B: { BTC: '1', ETH: '-2' }, C: { BTC: '0.3' }, D: { BTC: '0.01' } } },
  /* u5 */ { at: T0 + 12 * HOUR + 15 * MIN, holdings: { B: { BTC: '1', ETH: '-2' }, D: { BTC: '0.01' } } },
  /* u6 */ { at: T0 + 20 * HOUR, holdings: { A: { BTC: '0.1' }, B: { BTC: '1', ETH: '-2' }, C: { BTC: '0.4' }, D: { BTC: '0.01' } } },
  /* u7 */ { at: T0 + 25 * HOUR, holdings: { A: { BTC: '0.1' }, B: { BTC: '1', ETH: '-2' }, C: { BTC: '0.4' }, D: { BTC: '0.01' } } },
  /* u8 */ {
    at: T0 + 25 * HOUR + 15 * MIN,
    holdings: { A: { BTC: '0.1', ETH: '-1' }, B: { BTC: '1', ETH: '-2' }, C: { BTC: '0.4' }, D: { BTC: '0.01' } },
  },
  /* u9 */ {
    at: T0 + 30 * HOUR,
    holdings: { A: { BTC: '0.1', ETH: '-1' }, B: { BTC: '1', ETH: '-2' }, C: { BTC: '0.4' }, D: { BTC: '0.01' } },
  },
  /* u10 */ { at: T0 + 61 * HOUR, holdings: { A: { BTC: '0.1' }, B: { BTC: '1.5', ETH: '-2' }, C: { BTC: '-0.4' }, D: { BTC: '0.01' } } },
  /* u11 */ { at: T0 + 72 * HOUR, holdings: { A: { BTC: '0.1' }, B: { BTC: '1.5' }, C: { BTC: '-0.4' }, D: { BTC: '0.01' } } },
  /* u12 */ { at: T0 + 80 * HOUR, holdings: { A: { BTC: '0.25' }, B: { BTC: '1.5' }, C: { BTC: '-0.4' }, D: { BTC: '0.01' } } },
];
const at = (k: number) => UPDATES[k - 1]!.at;

/** The fills that opened two positions before they were first seen: B's ETH short and D's old BTC long. */
const FILLS: Array<{ wallet: Wallet; coin: Coin; side: 'A' | 'B'; sz: string; time: number }> = [
  { wallet: 'D', coin: 'BTC', side: 'B', sz: '0.01', time: T0 - 8 * DAY },
  { wallet: 'B', coin: 'ETH', side: 'A', sz: '2', time: T0 + 2 * HOUR },
];

const ENTRY: Record<Coin, string> = { BTC: '90000', ETH: '3000' };
const STEP: Record<Coin, string> = { BTC: '125.25', ETH: '7.5' };
/** The mark at update k: the entry plus k steps, so longs gain and shorts lose. */
const mark = (coin: Coin, k: number) => new Big(ENTRY[coin]).plus(new Big(STEP[coin]).times(k));

interface SeededPosition {
  wallet: Wallet;
  coin: Coin;
  szi: Big;
  value: Big;
  upnl: Big;
  funding: Big;
  openTime: number;
}

interface SeededUpdate {
  k: number;
  at: number;
  positions: SeededPosition[];
}

/** Every position of update k with the values it is seeded with. */
function positionsAt(k: number): Array<Omit<SeededPosition, 'openTime'>> {
  return WALLETS.flatMap((wallet) =>
    Object.entries(UPDATES[k - 1]!.holdings[wallet] ?? {}).map(([coin, szi]) => {
      const size = new Big(szi!);
      return {
        wallet,
        coin: coin as Coin,
        szi: size,
        value: size.abs().times(mark(coin as Coin, k)),
        upnl: size.times(new Big(STEP[coin as Coin]).times(k)),
        funding: new Big('0.35').times(k).times(size).neg(),
      };
    }),
  );
}

/**
 * The positions of each update with their open times, by the rule the contract implies: a position opens
 * when it is first seen on its side, at its opening fill's time when one is stored, else at the update's time.
 */
function seededUpdates(count: number): SeededUpdate[] {
  const open = new Map<string, { long: boolean; openTime: number }>();
  return UPDATES.slice(0, count).map(({ at: time }, i) => {
    const k = i + 1;
    const current = new Map<string, { long: boolean; openTime: number }>();
    const positions = positionsAt(k).map((p) => {
      const key = `${p.wallet}/${p.coin}`;
      const before = open.get(key);
      const long = p.szi.gt(0);
      const fill = FILLS.filter((f) => f.wallet === p.wallet && f.coin === p.coin && f.time <= time).at(-1);
      const openTime = before && before.long === long ? before.openTime : (fill?.time ?? time);
      current.set(key, { long, openTime });
      return { ...p, openTime };
    });
    open.clear();
    for (const [key, value] of current) open.set(key, value);
    return { k, at: time, positions };
  });
}

const WINDOW: Record<Timeframe, number> = { all: Infinity, '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY };
const sum = (list: SeededPosition[], of: (p: SeededPosition) => Big) => num(list.reduce((s, p) => s.plus(of(p)), new Big(0)));

/** A cohort's positions in a coin at one update, within the timeframe (opened at or after `at - window`). */
function cohortPositions(u: SeededUpdate, coin: Coin, segmentId: number, timeframe: Timeframe): SeededPosition[] {
  return u.positions.filter(
    (p) => p.coin === coin && cohorts(p.wallet, u.k).includes(segmentId) && (timeframe === 'all' || p.openTime >= u.at - WINDOW[timeframe]),
  );
}

function expectedMetric(u: SeededUpdate, coin: Coin, segmentId: number, timeframe: Timeframe) {
  const ps = cohortPositions(u, coin, segmentId, timeframe);
  const longs = ps.filter((p) => p.szi.gt(0));
  return {
    createdAt: iso(u.at),
    coin,
    segmentId,
    positionCount: ps.length,
    positionCountLong: longs.length,
    totalPositionValue: sum(ps, (p) => p.value),
    totalPositionValueLong: sum(longs, (p) => p.value),
    totalFunding: sum(ps, (p) => p.funding),
    totalUnrealizedPnl: sum(ps, (p) => p.upnl),
    totalPositionSize: sum(ps, (p) => p.szi.abs()),
    totalPositionSizeLong: sum(longs, (p) => p.szi),
  };
}

/** The series rows of route 2 for the picked updates: counts, values, long share by value (null without value), time. */
function expectedSeriesRows(updates: SeededUpdate[], coin: Coin, segmentId: number, timeframe: Timeframe) {
  return updates.map((u) => {
    const ps = cohortPositions(u, coin, segmentId, timeframe);
    const longs = ps.filter((p) => p.szi.gt(0));
    const total = ps.reduce((s, p) => s.plus(p.value), new Big(0));
    const long = longs.reduce((s, p) => s.plus(p.value), new Big(0));
    return [ps.length, longs.length, num(total), num(long), total.eq(0) ? null : num(long.div(total)), iso(u.at)];
  });
}

function expectedMarket(u: SeededUpdate) {
  const longs = u.positions.filter((p) => p.szi.gt(0));
  const shorts = u.positions.filter((p) => p.szi.lt(0));
  return {
    id: u.k,
    createdAt: iso(u.at),
    count: u.positions.length,
    countLong: longs.length,
    countShort: shorts.length,
    openInterest: sum(u.positions, (p) => p.value),
    openInterestLong: sum(longs, (p) => p.value),
    openInterestShort: sum(shorts, (p) => p.value),
    perpEquity: num(WALLETS.reduce((s, w) => s.plus(equity(w, u.k)), new Big(0))),
    countInProfit: u.positions.filter((p) => p.upnl.gt(0)).length,
  };
}

const invalid = (errors: Array<{ field: string; message: string }>) => ({
  status: 'error',
  message: `Invalid parameters: ${[...new Set(errors.map((e) => e.field))].join(', ')}`,
  errors,
});

/** Alters the keys of a genuine cursor and keeps its signature. */
const tampered = (cursor: string, keys: unknown[]) => `${Buffer.from(JSON.stringify(keys)).toString('base64url')}.${cursor.split('.')[1]}`;

describe('position metrics', () => {
  let api: ApiHarness;
  let token: string;
  let dataSource: DataSource;
  let states: MarketStateWriter;
  const updates = seededUpdates(UPDATES.length);
  const newestFirst = [...updates].reverse();
  const get = (path: string) => api.get(path, token);

  async function applyUpdate(k: number, time: number, holdings: Partial<Record<Wallet, Partial<Record<Coin, string>>>>): Promise<void> {
    const wallets = WALLETS.map((w) =>
      walletState(ADDRESS[w], {
        perpEquity: equity(w, k),
        allTimePnl: PNL[w],
        positions: Object.entries(holdings[w] ?? {}).map(([coin, szi]) => {
          const size = new Big(szi!);
          return positionState(coin, {
            szi: szi!,
            entryPx: ENTRY[coin as Coin],
            positionValue: size
              .abs()
              .times(mark(coin as Coin, k))
              .toString(),
            unrealizedPnl: size.times(new Big(STEP[coin as Coin]).times(k)).toString(),
            fundingSinceOpen: new Big('0.35').times(k).times(size).neg().toString(),
          });
        }),
      }),
    );
    const result = await states.apply(exchangeState(1000 + 10 * k, time, wallets));
    expect(result.applied).toBe(true);
  }

  beforeAll(async () => {
    api = await ApiHarness.start();
    ({ token } = await api.createConsumer({ name: 'position-metrics-suite' }));
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
    const facts = await startedWriter(dataSource, ExchangeFactsWriter);
    await facts.writeBlocks(
      feed(
        FILLS.map((f, i) =>
          fillsBlock(100 + i, f.time, [
            [ADDRESS[f.wallet], wireFill({ coin: f.coin, px: ENTRY[f.coin], sz: f.sz, side: f.side, time: f.time, tid: 500 + i })],
          ]),
        ),
      ),
      'node',
    );
    states = await startedWriter(dataSource, MarketStateWriter);
    for (const [i, update] of UPDATES.entries()) await applyUpdate(i + 1, update.at, update.holdings);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await api?.close();
  });

  describe('GET /position-metrics/coin/{coin}/segment/{segment}', () => {
    it('seeds the open times the model assumes (first seen, or the opening fill)', async () => {
      const rows: Array<{ address: string; coin: string; open_time: Date }> = await dataSource.query(
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
      const zeros = (time: number, segmentId: number) => ({
        createdAt: iso(time),
        coin: 'BTC',
        segmentId,
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
          for (const segmentId of [1, 2, 10, 11, 12, 16]) {
            const query = timeframe === 'all' ? '' : `?positionRecencyTimeframe=${timeframe}`;
            const res = await get(`${BASE}/coin/${coin}/segment/${segmentId}${query}`);
            expect({ timeframe, coin, segmentId, body: res.body }).toEqual({
              timeframe,
              coin,
              segmentId,
              body: { metrics: newestFirst.map((u) => expectedMetric(u, coin, segmentId, timeframe)), nextCursor: null },
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
      for (const segment of ['17', '0', '-3']) {
        const res = await get(`${BASE}/coin/BTC/segment/${segment}`);
        expect([res.status, res.body]).toEqual([404, { status: 'error', message: `Unknown segment: ${segment}` }]);
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

  describe('GET /position-metrics/coin/{coin}', () => {
    /** u12 (the latest), then per 12-hour boundary: Nov 13 00:00 -> u11 (on it); Nov 12 12:00, 00:00 and Nov 11 12:00 -> u9 (once); Nov 11 00:00 -> u6; Nov 10 12:00 -> u4 (on it); Nov 10 00:00: before u1. */
    const PICKED = [12, 11, 9, 6, 4];
    const COHORT_ORDER = [16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
    const COLUMNS = ['positionCount', 'positionCountLong', 'totalPositionValue', 'totalPositionValueLong', 'bias', 'timestamp'];

    const expectedSeries = (coin: Coin, picked: number[], timeframe: Timeframe, all = updates) => ({
      coin,
      data: COHORT_ORDER.map((id) => ({
        segment: SEGMENTS.find((s) => s.id === id),
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
    const doc = (await api.http.get('/docs-json')).body as {
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
          segment: SEGMENTS.find((s) => s.id === id),
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
