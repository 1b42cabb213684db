import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import type { PositionStateRecord } from '#exchange';
import { MarketStateWriter } from '#market';
import { address, exchangeState, positionState, startedWriter, walletState } from '#testing';
import { ApiHarness } from '../support/api-harness.js';

const WALLETS = '/api/external/wallets';
const HYPE_PX = '40';
/** The three state updates: each shows the wallets of its group and of the groups before. */
const UPDATE_TIMES = [Date.UTC(2026, 5, 1, 0, 0), Date.UTC(2026, 5, 1, 0, 15), Date.UTC(2026, 5, 1, 0, 30)];

// ---- the seed: 36 wallets whose every sort field takes a few values only, so every sort has ties ----

interface SeedPosition {
  coin: string;
  szi: string;
  entryPx: string;
  positionValue: string;
  unrealizedPnl: string;
  liquidationPx: string | null;
  /** Worked out by hand: (entry - value / |szi|) / (entry - liquidation), clamped to [0, 1]; null without a liquidation price. */
  progress: string | null;
}

// Long 2 BTC from 100 at a mark of 90 (value 180), liquidation 50: 10 / 50 = 0.2.
const BTC_NEAR: SeedPosition = {
  coin: 'BTC',
  szi: '2',
  entryPx: '100',
  positionValue: '180',
  unrealizedPnl: '-20',
  liquidationPx: '50',
  progress: '0.2',
};
// Long 2 BTC in profit (mark 110): -10 / 50, clamped to 0.
const BTC_SAFE: SeedPosition = {
  coin: 'BTC',
  szi: '2',
  entryPx: '100',
  positionValue: '220',
  unrealizedPnl: '20',
  liquidationPx: '50',
  progress: '0',
};
const BTC_NO_LIQ: SeedPosition = {
  coin: 'BTC',
  szi: '1',
  entryPx: '100',
  positionValue: '100',
  unrealizedPnl: '0',
  liquidationPx: null,
  progress: null,
};
// Short 4 ETH from 50 at 55 (value 220), liquidation 60: -5 / -10 = 0.5.
const ETH_HALF: SeedPosition = {
  coin: 'ETH',
  szi: '-4',
  entryPx: '50',
  positionValue: '220',
  unrealizedPnl: '-20',
  liquidationPx: '60',
  progress: '0.5',
};
// Short 4 ETH from 50 at 52 (value 208), liquidation 60: -2 / -10 = 0.2, as BTC_NEAR: the tie goes to BTC.
const ETH_FIFTH: SeedPosition = {
  coin: 'ETH',
  szi: '-4',
  entryPx: '50',
  positionValue: '208',
  unrealizedPnl: '-8',
  liquidationPx: '60',
  progress: '0.2',
};
const BTC_VARIANTS = [BTC_NEAR, BTC_SAFE, BTC_NO_LIQ];
const ETH_VARIANTS = [ETH_HALF, ETH_FIFTH];

interface SeedWallet {
  address: string;
  /** Index of the first update that shows it. */
  group: number;
  perpEquity: string;
  allTimePnl: string;
  spotHype: string;
  stakedHype: string;
  positions: SeedPosition[];
}

// '1000' and '1000.000' are the same amount: a tie too. 0 and -50 leave the ratios null even with positions.
const EQUITIES = ['1000', '250', '0', '-50', '20000.5', '1000.000'];
const PNLS = ['0', '-500', '150000', '12.25', '-2000000'];

/** Open positions of wallet i: none, BTC, or BTC and ETH (periods prime to the others', so the fields mix). */
const POSITION_COUNTS = [0, 1, 2, 1, 0, 2, 1];
function positionsOf(i: number): SeedPosition[] {
  const btc = BTC_VARIANTS[i % 3 === 0 ? (i >> 1) % 3 : (i + (i >> 3)) % 3]!;
  const count = POSITION_COUNTS[i % POSITION_COUNTS.length]!;
  return count === 0 ? [] : count === 1 ? [btc] : [btc, ETH_VARIANTS[(i >> 1) % 2]!];
}

const SEED: SeedWallet[] = Array.from({ length: 36 }, (_, i) => ({
  // Distinct addresses in an order unrelated to i.
  address: address(((i * 37) % 101) + 0x100),
  group: Math.floor(i / 12),
  perpEquity: EQUITIES[i % EQUITIES.length]!,
  allTimePnl: PNLS[i % PNLS.length]!,
  spotHype: i % 4 === 0 ? '10' : '0',
  stakedHype: i % 8 === 1 ? '2.5' : '0',
  positions: positionsOf(i),
}));

const positionOf = (p: SeedPosition): PositionStateRecord =>
  positionState(p.coin, {
    szi: p.szi,
    entryPx: p.entryPx,
    positionValue: p.positionValue,
    unrealizedPnl: p.unrealizedPnl,
    liquidationPx: p.liquidationPx,
  });

async function seed(dataSource: DataSource): Promise<void> {
  const states = await startedWriter(dataSource, MarketStateWriter);
  for (const [height, time] of UPDATE_TIMES.entries()) {
    const shown = SEED.filter((w) => w.group <= height);
    await states.apply(
      exchangeState(
        height + 1,
        time,
        shown.map((w) =>
          walletState(w.address, {
            perpEquity: w.perpEquity,
            allTimePnl: w.allTimePnl,
            spotHype: w.spotHype,
            stakedHype: w.stakedHype,
            positions: w.positions.map(positionOf),
          }),
        ),
        HYPE_PX,
      ),
    );
  }
}

// ---- the expected profiles, worked out from the seed with big.js and the API contract's cohort table ----

/** [id, lower bound (inclusive), upper bound (exclusive)], from the API contract's table. */
const SIZE_COHORTS: Array<[number, number | null, number | null]> = [
  [16, 0, 250],
  [1, 250, 10000],
  [2, 10000, 50000],
  [3, 50000, 100000],
  [4, 100000, 500000],
  [5, 500000, 1000000],
  [6, 1000000, 5000000],
  [7, 5000000, null],
];
const PNL_COHORTS: Array<[number, number | null, number | null]> = [
  [8, 1000000, null],
  [9, 100000, 1000000],
  [10, 10000, 100000],
  [11, 0, 10000],
  [12, -10000, 0],
  [13, -100000, -10000],
  [14, -1000000, -100000],
  [15, null, -1000000],
];
const cohortOf = (table: typeof SIZE_COHORTS, value: string): number =>
  table.find(([, min, max]) => (min === null || new Big(value).gte(min)) && (max === null || new Big(value).lt(max)))?.[0] ?? 16; // a negative perp equity: Shrimp

const sum = (values: string[]): Big => values.reduce((total, v) => total.plus(v), new Big(0));
const num = (value: Big): number => Number(value.toString());
const round8 = (value: Big): number => num(value.round(8, Big.roundHalfUp));

interface Expected {
  profile: Record<string, unknown>;
  keys: Record<string, Big | number | string | null>;
}

function expectedOf(w: SeedWallet): Expected {
  const open = sum(w.positions.map((p) => p.positionValue));
  const long = sum(w.positions.filter((p) => !p.szi.startsWith('-')).map((p) => p.positionValue));
  const short = open.minus(long);
  const equity = new Big(w.perpEquity);
  const hasRatios = equity.gt(0) && w.positions.length > 0;
  const total = equity.plus(new Big(w.spotHype).plus(w.stakedHype).times(HYPE_PX));
  const withLiq = w.positions.filter((p) => p.progress !== null);
  // The highest progress; between equal ones the first coin.
  const closest = [...withLiq].sort((a, b) => new Big(b.progress!).cmp(a.progress!) || (a.coin < b.coin ? -1 : 1))[0];
  const earliest = UPDATE_TIMES[w.group]!;
  const perpBias = hasRatios ? long.minus(short).div(equity) : null;
  const exposureRatio = hasRatios ? open.div(equity) : null;
  return {
    profile: {
      xUserId: null,
      displayName: null,
      emoji: null,
      verified: false,
      segments: [cohortOf(SIZE_COHORTS, w.perpEquity), cohortOf(PNL_COHORTS, w.allTimePnl)],
      address: w.address,
      favoriteCount: 0,
      totalEquity: num(total),
      earliestActivityAt: new Date(earliest).toISOString(),
      perpPnl: num(new Big(w.allTimePnl)),
      perpEquity: num(equity),
      exposureRatio: exposureRatio && round8(exposureRatio),
      perpBias: perpBias && round8(perpBias),
      openValue: num(open),
      sumUpnl: num(sum(w.positions.map((p) => p.unrealizedPnl))),
      vault: null,
      closestLiq: { coin: closest?.coin ?? null, progress: closest ? num(new Big(closest.progress!)) : null },
    },
    keys: {
      address: w.address,
      totalEquity: total,
      earliestActivityAt: earliest,
      perpPnl: new Big(w.allTimePnl),
      perpEquity: equity,
      perpBias: perpBias && perpBias.round(8, Big.roundHalfUp),
      openValue: open,
      sumUpnl: sum(w.positions.map((p) => p.unrealizedPnl)),
      closestLiqProgress: closest ? new Big(closest.progress!) : null,
      countOpenPositions: w.positions.length,
      exposureRatio: exposureRatio && exposureRatio.round(8, Big.roundHalfUp),
    },
  };
}

const EXPECTED = SEED.map((w) => ({ seed: w, ...expectedOf(w) }));
const ORDER_FIELDS = [
  'address',
  'totalEquity',
  'earliestActivityAt',
  'perpPnl',
  'perpEquity',
  'perpBias',
  'openValue',
  'sumUpnl',
  'closestLiqProgress',
  'countOpenPositions',
  'exposureRatio',
];

function compareKeys(a: Big | number | string, b: Big | number | string): number {
  if (a instanceof Big) return a.cmp(b as Big);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The order the API contract asks for: the field, then the address, both in `order`; nulls last either way. */
function expectedList(orderBy: string, order: 'asc' | 'desc', keep: (w: SeedWallet) => boolean = () => true) {
  const sign = order === 'asc' ? 1 : -1;
  return EXPECTED.filter((e) => keep(e.seed))
    .sort((x, y) => {
      const [a, b] = [x.keys[orderBy]!, y.keys[orderBy]!];
      if (a === null || b === null) {
        if (a !== b) return a === null ? 1 : -1;
      } else if (compareKeys(a, b) !== 0) {
        return sign * compareKeys(a, b);
      }
      return sign * compareKeys(x.seed.address, y.seed.address);
    })
    .map((e) => e.profile);
}

/** Values a careless or hostile caller sends. */
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
  'true',
  'false',
  '[]',
  '{}',
  'asc',
  'DESC',
  'totalEquity',
  '4,5',
  '4,,5',
  '4, 5',
  `0x${'a'.repeat(40)}`,
  `0x${'A'.repeat(40)}`,
  "'; DROP TABLE wallets; --",
  '%00',
  '\u0000',
  '9'.repeat(400),
  '🐋',
];

const badRequest = (field: string, message: string) => ({
  status: 'error',
  message: `Invalid parameters: ${field}`,
  errors: [{ field, message }],
});

describe('GET /api/external/wallets', () => {
  let api: ApiHarness;
  let token: string;
  let dataSource: DataSource;
  const get = (query = '') => api.get(`${WALLETS}${query}`, token);

  /** Every page of `query` at `limit` wallets a page, checking each page's count and size. */
  async function walk(query: string, limit: number) {
    const items: Array<{ address: string }> = [];
    let totalCount = 0;
    for (let offset = 0; offset === 0 || offset < totalCount; offset += limit) {
      const res = await get(`?${query}${query ? '&' : ''}offset=${offset}&limit=${limit}`);
      expect([query, offset, res.status]).toEqual([query, offset, 200]);
      if (offset === 0) totalCount = res.body.totalCount;
      expect(res.body.totalCount).toBe(totalCount);
      expect(res.body.items).toHaveLength(Math.min(limit, totalCount - offset));
      items.push(...res.body.items);
    }
    return { totalCount, items };
  }

  beforeAll(async () => {
    api = await ApiHarness.start();
    ({ token } = await api.createConsumer({ name: 'wallets-suite' }));
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await api?.close();
  });

  it('documents the parameters, the default sort and the tiebreak in the OpenAPI document', async () => {
    const doc = (await api.http.get('/docs-json')).body;
    const route = doc.paths[WALLETS].get;
    const param = (name: string) => route.parameters.find((p: { name: string }) => p.name === name);
    expect(route.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'address',
      'hasOpenPositions',
      'limit',
      'offset',
      'order',
      'orderBy',
      'segmentIds',
    ]);
    expect(param('orderBy').schema).toMatchObject({ enum: ORDER_FIELDS, default: 'totalEquity' });
    expect(param('orderBy').description).toContain('then by address in the same direction');
    expect(param('orderBy').description).toContain('come last in both directions');
    expect(param('order').schema).toMatchObject({ enum: ['asc', 'desc'], default: 'desc' });
    expect(param('limit').schema).toMatchObject({ minimum: 1, maximum: 500, default: 500 });
    expect(param('segmentIds').description).toContain('segmentIds=4&segmentIds=5');
    expect(Object.keys(doc.components.schemas.WalletProfileDto.properties)).toEqual([
      'xUserId',
      'displayName',
      'emoji',
      'verified',
      'segments',
      'address',
      'favoriteCount',
      'totalEquity',
      'earliestActivityAt',
      'perpPnl',
      'perpEquity',
      'exposureRatio',
      'perpBias',
      'openValue',
      'sumUpnl',
      'vault',
      'closestLiq',
    ]);
  });

  it('lists nothing before any state update', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ totalCount: 0, items: [] });
  });

  describe('over seeded state updates', () => {
    beforeAll(async () => {
      await seed(dataSource);
    });

    it('gives every wallet profile exactly, by totalEquity descending by default', async () => {
      const res = await get();
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual({ totalCount: 36, items: expectedList('totalEquity', 'desc') });
      expect((await get('?orderBy=totalEquity&order=desc&offset=0&limit=500')).body).toEqual(res.body);
    });

    it('works the profile out of the state as the API contract defines it', async () => {
      const one = (i: number) => get(`?address=${SEED[i]!.address}`).then((r) => r.body.items[0]);
      // i = 16: 20000.5 of perp equity (Dolphin), -500 PnL (Exit Liquidity), 10 spot HYPE at 40, first shown by the second update;
      // long BTC 180 (progress 0.2) and short ETH 220 (progress 0.5).
      expect(SEED[16]!.positions).toEqual([BTC_NEAR, ETH_HALF]);
      expect(await one(16)).toEqual({
        xUserId: null,
        displayName: null,
        emoji: null,
        verified: false,
        segments: [2, 12],
        address: SEED[16]!.address,
        favoriteCount: 0,
        totalEquity: 20400.5,
        earliestActivityAt: '2026-06-01T00:15:00.000Z',
        perpPnl: -500,
        perpEquity: 20000.5,
        // 400 / 20000.5 = 0.0199995000125 and -40 / 20000.5, to 8 places.
        exposureRatio: 0.0199995,
        perpBias: -0.00199995,
        openValue: 400,
        sumUpnl: -40,
        vault: null,
        closestLiq: { coin: 'ETH', progress: 0.5 },
      });
      // i = 9: -50 of perp equity (Shrimp) with positions: no ratios; 2.5 staked HYPE at 40 make the total 50.
      expect(await one(9)).toMatchObject({
        segments: [16, 15],
        totalEquity: 50,
        perpEquity: -50,
        exposureRatio: null,
        perpBias: null,
        openValue: 440,
        closestLiq: { coin: 'ETH', progress: 0.5 },
      });
      // i = 19: BTC and ETH both at 0.2: the first coin. (180 - 208) / 250 and 388 / 250.
      expect(SEED[19]!.positions).toEqual([BTC_NEAR, ETH_FIFTH]);
      expect(await one(19)).toMatchObject({
        segments: [1, 15],
        perpBias: -0.112,
        exposureRatio: 1.552,
        closestLiq: { coin: 'BTC', progress: 0.2 },
      });
      // i = 3: a position in profit has progress 0, not none. i = 10: no liquidation price at all; 100 / 20000.5 to 8 places.
      expect(await one(3)).toMatchObject({ closestLiq: { coin: 'BTC', progress: 0 }, exposureRatio: null });
      expect(await one(10)).toMatchObject({ closestLiq: { coin: null, progress: null }, exposureRatio: 0.00499988, perpBias: 0.00499988 });
      // i = 2: 0 of perp equity: no ratios; first shown by the first update. i = 35: no position, first shown by the third.
      expect(await one(2)).toMatchObject({
        segments: [16, 9],
        exposureRatio: null,
        perpBias: null,
        earliestActivityAt: '2026-06-01T00:00:00.000Z',
      });
      expect(await one(35)).toMatchObject({
        segments: [1, 11],
        openValue: 0,
        sumUpnl: 0,
        exposureRatio: null,
        earliestActivityAt: '2026-06-01T00:30:00.000Z',
      });
    });

    it('has ties in every sort field but address', () => {
      for (const field of ORDER_FIELDS.filter((f) => f !== 'address')) {
        const values = EXPECTED.map((e) => String(e.keys[field]));
        expect([field, new Set(values).size < values.length - 10]).toEqual([field, true]);
      }
    });

    for (const orderBy of ORDER_FIELDS) {
      for (const order of ['asc', 'desc'] as const) {
        it(`walks orderBy=${orderBy}&order=${order} page by page, every wallet once, in order`, async () => {
          const { totalCount, items } = await walk(`orderBy=${orderBy}&order=${order}`, 7);
          expect(totalCount).toBe(36);
          expect(new Set(items.map((w) => w.address)).size).toBe(36);
          expect(items).toEqual(expectedList(orderBy, order));
        });
      }
    }

    it('puts wallets without a perpBias, exposureRatio or closestLiqProgress last in both directions', async () => {
      for (const [field, value] of [
        ['perpBias', 'perpBias'],
        ['exposureRatio', 'exposureRatio'],
        ['closestLiqProgress', 'closestLiq'],
      ] as const) {
        for (const order of ['asc', 'desc']) {
          const items = (await get(`?orderBy=${field}&order=${order}`)).body.items as Array<Record<string, unknown>>;
          const isNull = items.map((w) => (value === 'closestLiq' ? (w.closestLiq as { progress: unknown }).progress : w[value]) === null);
          const firstNull = isNull.indexOf(true);
          expect([field, order, firstNull > 0, isNull.slice(firstNull).every(Boolean)]).toEqual([field, order, true, true]);
        }
      }
    });

    it('defaults order to desc and orderBy to totalEquity', async () => {
      expect((await get('?orderBy=perpPnl')).body.items).toEqual(expectedList('perpPnl', 'desc'));
      expect((await get('?order=asc')).body.items).toEqual(expectedList('totalEquity', 'asc'));
    });

    it('gives an empty page past the end, with the count', async () => {
      expect((await get('?offset=36')).body).toEqual({ totalCount: 36, items: [] });
      expect((await get('?offset=10000000&limit=1')).body).toEqual({ totalCount: 36, items: [] });
      expect((await get('?offset=35&limit=500')).body).toEqual({ totalCount: 36, items: expectedList('totalEquity', 'desc').slice(35) });
    });

    describe('segmentIds', () => {
      const inCohorts = (ids: number[]) => (w: SeedWallet) =>
        ids.includes(cohortOf(SIZE_COHORTS, w.perpEquity)) || ids.includes(cohortOf(PNL_COHORTS, w.allTimePnl));

      it.each([
        ['segmentIds=2&segmentIds=15', [2, 15]],
        ['segmentIds=2,15', [2, 15]],
        ['segmentIds=2,15&segmentIds=15', [2, 15]],
        ['segmentIds=16', [16]],
        ['segmentIds=9', [9]],
        ['segmentIds=1,11', [1, 11]],
      ])('keeps the wallets whose size or pnl cohort is listed: %s', async (query, ids) => {
        const want = expectedList('perpPnl', 'asc', inCohorts(ids));
        expect(want.length).toBeGreaterThan(2);
        const { totalCount, items } = await walk(`${query}&orderBy=perpPnl&order=asc`, 2);
        expect(totalCount).toBe(want.length);
        expect(items).toEqual(want);
      });

      it('matches a size cohort and a pnl cohort alike, and none when no wallet is in it', async () => {
        // Dolphins (size 2) are the 20000.5 wallets; Giga-Rekt (pnl 15) the -2000000 ones; nobody is a Leviathan (7) or Semi-Rekt (13).
        expect((await get('?segmentIds=2')).body.totalCount).toBe(SEED.filter((w) => w.perpEquity === '20000.5').length);
        expect((await get('?segmentIds=15')).body.totalCount).toBe(SEED.filter((w) => w.allTimePnl === '-2000000').length);
        expect((await get('?segmentIds=7,13')).body).toEqual({ totalCount: 0, items: [] });
      });
    });

    it('filters by hasOpenPositions', async () => {
      const open = await walk('hasOpenPositions=true&orderBy=countOpenPositions&order=desc', 5);
      expect(open.items).toEqual(expectedList('countOpenPositions', 'desc', (w) => w.positions.length > 0));
      expect(open.totalCount).toBe(25);
      const flat = await walk('hasOpenPositions=false&orderBy=address&order=asc', 5);
      expect(flat.items).toEqual(expectedList('address', 'asc', (w) => w.positions.length === 0));
      expect(flat.totalCount).toBe(11);
    });

    it('finds one wallet by address in any case, and none for a wallet never seen', async () => {
      const w = SEED[10]!;
      const want = { totalCount: 1, items: expectedList('address', 'asc', (s) => s === w) };
      expect((await get(`?address=${w.address}`)).body).toEqual(want);
      expect((await get(`?address=0x${w.address.slice(2).toUpperCase()}`)).body).toEqual(want);
      expect((await get(`?address=${address(0xdead)}`)).body).toEqual({ totalCount: 0, items: [] });
    });

    it('combines the filters with AND', async () => {
      const keep = (w: SeedWallet) =>
        w.positions.length > 0 && (cohortOf(SIZE_COHORTS, w.perpEquity) === 1 || cohortOf(PNL_COHORTS, w.allTimePnl) === 1);
      const res = await get('?segmentIds=1&hasOpenPositions=true&orderBy=sumUpnl&order=asc');
      expect(res.body).toEqual({ totalCount: SEED.filter(keep).length, items: expectedList('sumUpnl', 'asc', keep) });
      const w = SEED.find((s) => s.positions.length === 0 && cohortOf(SIZE_COHORTS, s.perpEquity) === 1)!;
      expect((await get(`?address=${w.address}&segmentIds=1`)).body.totalCount).toBe(1);
      expect((await get(`?address=${w.address}&segmentIds=1&hasOpenPositions=true`)).body).toEqual({ totalCount: 0, items: [] });
    });

    it.each([
      ['segmentIds=17', 'segmentIds', 'each segmentIds value must be a cohort id from 1 to 16'],
      ['segmentIds=4,17', 'segmentIds', 'each segmentIds value must be a cohort id from 1 to 16'],
      ['segmentIds=4&segmentIds=0', 'segmentIds', 'each segmentIds value must be a cohort id from 1 to 16'],
      ['segmentIds=abc', 'segmentIds', 'each segmentIds value must be a cohort id from 1 to 16'],
      ['segmentIds=4.0', 'segmentIds', 'each segmentIds value must be a cohort id from 1 to 16'],
      ['segmentIds=', 'segmentIds', 'each segmentIds value must be a cohort id from 1 to 16'],
      [`segmentIds=${Array.from({ length: 17 }, () => '1').join(',')}`, 'segmentIds', 'segmentIds must name at most 16 cohorts'],
      ['limit=0', 'limit', 'limit must not be less than 1'],
      ['limit=501', 'limit', 'limit must not be greater than 500'],
      ['limit=ten', 'limit', 'limit must be an integer number'],
      ['offset=-1', 'offset', 'offset must not be less than 0'],
      ['offset=1.5', 'offset', 'offset must be an integer number'],
      ['offset=10000001', 'offset', 'offset must not be greater than 10000000'],
      ['order=up', 'order', 'order must be one of the following values: asc, desc'],
      ['order=DESC', 'order', 'order must be one of the following values: asc, desc'],
      ['orderBy=favoriteCount', 'orderBy', `orderBy must be one of the following values: ${ORDER_FIELDS.join(', ')}`],
      ['hasOpenPositions=yes', 'hasOpenPositions', 'hasOpenPositions must be true or false'],
      ['hasOpenPositions=1', 'hasOpenPositions', 'hasOpenPositions must be true or false'],
      ['address=0x123', 'address', 'address must be 0x followed by 40 hex digits'],
      [`address=${address(1)}0`, 'address', 'address must be 0x followed by 40 hex digits'],
      ['address=', 'address', 'address must be 0x followed by 40 hex digits'],
      ['segmentId=4', 'segmentId', 'property segmentId should not exist'],
    ])('answers ?%s with a 400 naming %s', async (query, field, message) => {
      const res = await get(`?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest(field, message));
    });

    it('answers hostile values of every field with a 200 or a 400 naming a field, never a 5xx', async () => {
      const { token: fuzz } = await api.createConsumer({ name: 'wallets-hostile', rateLimitPerMinute: 100_000 });
      const fields = [
        'offset',
        'limit',
        'order',
        'orderBy',
        'segmentIds',
        'hasOpenPositions',
        'address',
        'segmentIds[]',
        'segmentIds[a]',
        'nextCursor',
      ];
      for (const field of fields) {
        for (const value of HOSTILE) {
          const res = await api.get(
            `${WALLETS}?${new URLSearchParams([
              [field, value],
              [field, value],
            ]).toString()}`,
            fuzz,
          );
          expect([field, value, [200, 400].includes(res.status)]).toEqual([field, value, true]);
          if (res.status === 400)
            expect(res.body).toEqual({
              status: 'error',
              message: expect.stringMatching(/^Invalid parameters: /),
              errors: [expect.objectContaining({ field: expect.any(String) })],
            });
        }
      }
    });

    it('needs a token', async () => {
      const res = await api.get(WALLETS);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', message: 'Unauthorized' });
    });
  });
});
