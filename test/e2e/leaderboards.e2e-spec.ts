import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import type { PositionStateRecord } from '#exchange';
import { ExchangeFactsWriter, MarketStateWriter } from '#market';
import { address, exchangeState, feed, fillsBlock, positionState, startedWriter, walletState, wireFill } from '#testing';
import { ApiHarness } from '../support/api-harness.js';

const ALL_PNL = '/api/external/leaderboards/all-pnl';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

// The latest state update is the exchange "now". The updates span 45 days, with some exactly on the
// 30-day, 7-day and 24-hour marks and some just either side of them.
const LAST = Date.UTC(2026, 2, 15, 12);
const UPDATES = [
  -45 * DAY,
  -31 * DAY,
  -30 * DAY,
  -30 * DAY + 15 * MIN,
  -20 * DAY,
  -8 * DAY,
  -7 * DAY,
  -7 * DAY + 15 * MIN,
  -3 * DAY,
  -DAY - 15 * MIN,
  -DAY,
  -DAY + 15 * MIN,
  -12 * HOUR,
  -15 * MIN,
  0,
].map((d) => LAST + d);
const K = UPDATES.length;
const hypePx = (k: number) => new Big(40).plus(new Big(k).times('0.5')).toFixed();

type PnlField = 'pnlDay' | 'pnlWeek' | 'pnlMonth' | 'pnlAllTime';

// 60 wallets. Wallets 0 to 3 share one history (ties, broken by address); the first update each shows
// up in varies (before 30 days, between the marks, inside the last 24 hours); wallet 7 is missing from
// the last two updates (it keeps what it last showed).
const N = 60;
const WALLET = (i: number) => address(0xa000 + i);
const seedOf = (i: number) => (i < 4 ? 0 : i);
const FIRST = (i: number) => [0, 3, 6, 10, 13][i % 5]!;
const LAST_SEEN = (i: number) => (i === 7 ? K - 3 : K - 1);
const shown = (i: number, k: number) => k >= FIRST(i) && k <= LAST_SEEN(i);

/** All-time PnL at update k: a base from -2M to 2M, changing only at some updates. */
function pnl(i: number, k: number): Big {
  const s = seedOf(i);
  let value = new Big((s * 104_729) % 4_000_001).minus(2_000_000).plus('0.5');
  for (let j = 0; j <= k; j++) if ((j + s) % 3 === 0) value = value.plus(((s * 31 + j * 17) % 500) - 250).plus('0.25');
  return value;
}
const perpEquity = (i: number, k: number) => new Big((seedOf(i) * 15_485_863) % 6_000_000).plus(k).plus('0.75');
const spotHype = (i: number) => (i % 6 === 0 ? new Big(i).plus('12.5') : new Big(0));
const stakedHype = (i: number) => (i % 9 === 0 ? new Big(100) : new Big(0));

/** The same open positions at every update: none, one, or two (two of equal value: the coin decides). */
function positions(i: number): PositionStateRecord[] {
  switch (i % 4) {
    case 0:
      return [
        positionState('BTC', { szi: '0.5', positionValue: `${30_000 + i}`, unrealizedPnl: '-120.5' }),
        positionState('ETH', { szi: '-2', positionValue: '6000.25', unrealizedPnl: '80' }),
      ];
    case 1:
      return [positionState('ETH', { szi: '3', positionValue: `${9000 + i}.5`, unrealizedPnl: '15.75' })];
    case 3:
      return [
        positionState('xyz:GOLD', { szi: '1', positionValue: '2500', unrealizedPnl: '-3' }),
        positionState('BTC', { szi: '-0.05', positionValue: '2500', unrealizedPnl: '1' }),
      ];
    default:
      return [];
  }
}

// One wallet has a fill 60 days back: its earliest activity is that fill, not its first update.
const EARLY_FILL = LAST - 60 * DAY;

// Size cohorts by perp equity, pnl cohorts by all-time PnL: the API contract's table.
const SIZE_BOUNDS: Array<[number, number]> = [
  [16, 250],
  [1, 10_000],
  [2, 50_000],
  [3, 100_000],
  [4, 500_000],
  [5, 1_000_000],
  [6, 5_000_000],
  [7, Infinity],
];
const PNL_BOUNDS: Array<[number, number]> = [
  [15, -1_000_000],
  [14, -100_000],
  [13, -10_000],
  [12, 0],
  [11, 10_000],
  [10, 100_000],
  [9, 1_000_000],
  [8, Infinity],
];
const cohort = (bounds: Array<[number, number]>, v: Big) => bounds.find(([, max]) => max === Infinity || v.lt(max))![0];

const num = (b: Big) => Number(b.toFixed());

interface Expected {
  address: string;
  values: Record<PnlField, Big>;
  entry: Record<string, unknown>;
}

/** Every wallet as the leaderboard should show it, rank left to fill in. */
function wallets(): Expected[] {
  return Array.from({ length: N }, (_, i) => {
    const last = LAST_SEEN(i);
    const now = pnl(i, last);
    // All-time PnL at the newest update at or before `at` that showed the wallet; before its first one, its first.
    const pnlAt = (at: number) => {
      const ks = UPDATES.map((t, k) => k).filter((k) => shown(i, k) && UPDATES[k]! <= at);
      return pnl(i, ks.length ? ks[ks.length - 1]! : FIRST(i));
    };
    const values: Record<PnlField, Big> = {
      pnlDay: now.minus(pnlAt(LAST - DAY)),
      pnlWeek: now.minus(pnlAt(LAST - 7 * DAY)),
      pnlMonth: now.minus(pnlAt(LAST - 30 * DAY)),
      pnlAllTime: now,
    };
    const equity = perpEquity(i, last);
    const total = equity.plus(spotHype(i).plus(stakedHype(i)).times(hypePx(last)));
    const open = positions(i);
    const upnl = open.reduce((s, p) => s.plus(p.unrealizedPnl), new Big(0));
    const top = [...open].sort((a, b) => new Big(b.positionValue).cmp(a.positionValue) || (a.coin < b.coin ? -1 : 1))[0];
    const earliest = i === 5 ? EARLY_FILL : UPDATES[FIRST(i)]!;
    return {
      address: WALLET(i),
      values,
      entry: {
        address: WALLET(i),
        age: LAST - earliest,
        totalValue: num(total),
        stableValue: num(equity.minus(upnl)),
        topHolding: top?.coin ?? null,
        pnlDay: num(values.pnlDay),
        pnlWeek: num(values.pnlWeek),
        pnlMonth: num(values.pnlMonth),
        pnlAllTime: num(values.pnlAllTime),
        profile: {
          mid: null,
          tidewatchId: null,
          xUserId: null,
          displayName: null,
          emoji: null,
          verified: false,
          segments: [cohort(SIZE_BOUNDS, equity), cohort(PNL_BOUNDS, now)],
          address: WALLET(i),
          favoriteCount: 0,
          earliestActivityAt: iso(earliest),
          totalEquity: num(total),
          perpPnl: num(now),
          vault: null,
        },
      },
    };
  });
}
const WALLETS = wallets();

/** The whole board for one request: ranked by rankBy descending, ordered by orderBy, ties by address. */
function board(order: 'asc' | 'desc', orderBy: PnlField, rankBy: PnlField) {
  const byAddress = (a: Expected, b: Expected) => (a.address < b.address ? -1 : 1);
  const ranks = new Map(
    [...WALLETS].sort((a, b) => b.values[rankBy].cmp(a.values[rankBy]) || byAddress(a, b)).map((w, r) => [w.address, r + 1]),
  );
  const sign = order === 'desc' ? -1 : 1;
  const data = [...WALLETS]
    .sort((a, b) => sign * a.values[orderBy].cmp(b.values[orderBy]) || byAddress(a, b))
    .map((w) => ({ ...w.entry, rank: ranks.get(w.address) }));
  return { sumPnl: num(WALLETS.reduce((s, w) => s.plus(w.values[orderBy]), new Big(0))), data };
}

/** Open position value per coin at each wallet's last update, highest first, ties by coin. */
function assets() {
  const byCoin = new Map<string, Big>();
  for (let i = 0; i < N; i++) for (const p of positions(i)) byCoin.set(p.coin, (byCoin.get(p.coin) ?? new Big(0)).plus(p.positionValue));
  return [...byCoin].sort(([a, x], [b, y]) => y.cmp(x) || (a < b ? -1 : 1)).map(([coin, value]) => ({ coin, value: num(value) }));
}

const badRequest = (errors: Array<{ field: string; message: string }>) => ({
  status: 'error',
  message: `Invalid parameters: ${[...new Set(errors.map((e) => e.field))].join(', ')}`,
  errors,
});

describe('PnL leaderboard', () => {
  let api: ApiHarness;
  let token: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    api = await ApiHarness.start();
    ({ token } = await api.createConsumer({ name: 'leaderboards-suite' }));
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
    const facts = await startedWriter(dataSource, ExchangeFactsWriter);
    await facts.writeBlocks(
      feed([
        fillsBlock(10, EARLY_FILL, [[WALLET(5), wireFill({ coin: 'BTC', px: '50000', sz: '0.01', side: 'B', time: EARLY_FILL, tid: 1 })]]),
      ]),
      'node',
    );
    const states = await startedWriter(dataSource, MarketStateWriter);
    for (let k = 0; k < K; k++) {
      const shownNow = Array.from({ length: N }, (_, i) => i).filter((i) => shown(i, k));
      const update = shownNow.map((i) =>
        walletState(WALLET(i), {
          perpEquity: perpEquity(i, k).toFixed(),
          allTimePnl: pnl(i, k).toFixed(),
          spotHype: spotHype(i).toFixed(),
          stakedHype: stakedHype(i).toFixed(),
          positions: positions(i),
        }),
      );
      expect((await states.apply(exchangeState(100 + k, UPDATES[k]!, update, hypePx(k)))).applied).toBe(true);
    }
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await api?.close();
  });

  const get = (path: string) => api.get(path, token);

  it('seeds wallets first seen before, between and after the marks, with ties', () => {
    expect(UPDATES[K - 1]! - UPDATES[0]!).toBeGreaterThan(30 * DAY);
    // First seen inside the last 24 hours (update 13): day, week and month all count from that first PnL.
    const late = WALLETS[9]!;
    expect(FIRST(9)).toBe(13);
    expect(late.values.pnlDay.eq(late.values.pnlAllTime.minus(pnl(9, 13)))).toBe(true);
    expect(late.values.pnlMonth.eq(late.values.pnlDay)).toBe(true);
    expect(new Set(WALLETS.slice(0, 4).map((w) => w.values.pnlDay.toFixed())).size).toBe(1);
    expect(
      WALLETS.some((w) => w.values.pnlDay.gt(0)) &&
        WALLETS.some((w) => w.values.pnlDay.lt(0)) &&
        WALLETS.some((w) => w.values.pnlDay.eq(0)),
    ).toBe(true);
  });

  it('stores a PnL row at a wallet first update and then only when the PnL changed', async () => {
    const rows: Array<{ address: string; created_at: Date; perp_pnl: string }> = await dataSource.query(
      `SELECT address, created_at, trim_scale(perp_pnl)::text AS perp_pnl FROM wallet_pnl_history ORDER BY address, created_at`,
    );
    const expected: Array<{ address: string; created_at: Date; perp_pnl: string }> = [];
    for (let i = 0; i < N; i++) {
      let previous: string | null = null;
      for (let k = 0; k < K; k++) {
        if (!shown(i, k)) continue;
        const value = pnl(i, k).toFixed();
        if (value !== previous) expected.push({ address: WALLET(i), created_at: new Date(UPDATES[k]!), perp_pnl: value });
        previous = value;
      }
    }
    expect(rows.length).toBeLessThan((WALLETS.length * K) / 2);
    expect(rows).toEqual(expected);
  });

  it('answers the first page with every field, recomputed from the updates', async () => {
    const res = await get(`${ALL_PNL}?order=desc&orderBy=pnlDay&rankBy=pnlDay`);
    expect(res.status).toBe(200);
    const { sumPnl, data } = board('desc', 'pnlDay', 'pnlDay');
    expect(res.body).toEqual({ totalCount: N, assetsDistribution: assets(), sumPnl, data: data.slice(0, 25) });
    expect(res.body.data.map((d: { rank: number }) => d.rank)).toEqual(Array.from({ length: 25 }, (_, r) => r + 1));
    // Wallet 7 missed the last updates: it keeps its last positions, and the tie of equal positions goes to BTC.
    expect(assets().map((a) => a.coin)).toEqual(['BTC', 'ETH', 'xyz:GOLD']);
  });

  it.each([
    ['desc', 'pnlDay', 'pnlAllTime'],
    ['asc', 'pnlDay', 'pnlDay'],
    ['desc', 'pnlWeek', 'pnlMonth'],
    ['asc', 'pnlWeek', 'pnlWeek'],
    ['desc', 'pnlMonth', 'pnlDay'],
    ['asc', 'pnlMonth', 'pnlAllTime'],
    ['desc', 'pnlAllTime', 'pnlWeek'],
    ['asc', 'pnlAllTime', 'pnlAllTime'],
  ] as const)('walks order=%s orderBy=%s rankBy=%s by offset: every wallet once, in order', async (order, orderBy, rankBy) => {
    const expected = board(order, orderBy, rankBy);
    const seen: Array<{ address: string }> = [];
    for (let offset = 0; offset <= N; offset += 25) {
      const res = await get(`${ALL_PNL}?order=${order}&orderBy=${orderBy}&rankBy=${rankBy}&offset=${offset}&limit=25`);
      expect(res.status).toBe(200);
      expect(res.body.totalCount).toBe(N);
      expect(res.body.sumPnl).toBe(expected.sumPnl);
      expect(res.body.data).toEqual(expected.data.slice(offset, offset + 25));
      seen.push(...res.body.data);
    }
    expect(seen).toHaveLength(N);
    expect(new Set(seen.map((d) => d.address)).size).toBe(N);
    expect(seen).toEqual(expected.data);
    // Ascending order with a descending rank: the last rows have the best ranks.
    if (order === 'asc' && orderBy === rankBy) expect((seen[N - 1] as unknown as { rank: number }).rank).toBe(1);
  });

  it('takes 25 by default, and 50 or 100', async () => {
    const { data } = board('desc', 'pnlWeek', 'pnlWeek');
    const q = `${ALL_PNL}?order=desc&orderBy=pnlWeek&rankBy=pnlWeek`;
    expect((await get(q)).body.data).toEqual(data.slice(0, 25));
    expect((await get(`${q}&limit=50`)).body.data).toEqual(data.slice(0, 50));
    expect((await get(`${q}&limit=100`)).body.data).toEqual(data);
    expect((await get(`${q}&limit=50&offset=40`)).body.data).toEqual(data.slice(40));
    const past = await get(`${q}&offset=1000`);
    expect(past.body).toEqual({
      totalCount: N,
      assetsDistribution: assets(),
      sumPnl: board('desc', 'pnlWeek', 'pnlWeek').sumPnl,
      data: [],
    });
  });

  it('requires order, orderBy and rankBy, naming each missing one', async () => {
    const all = await get(ALL_PNL);
    expect(all.status).toBe(400);
    expect(all.body).toEqual(
      badRequest([
        { field: 'order', message: 'order must be one of the following values: asc, desc' },
        { field: 'orderBy', message: 'orderBy must be one of the following values: pnlDay, pnlWeek, pnlMonth, pnlAllTime' },
        { field: 'rankBy', message: 'rankBy must be one of the following values: pnlDay, pnlWeek, pnlMonth, pnlAllTime' },
      ]),
    );
    const noRank = await get(`${ALL_PNL}?order=desc&orderBy=pnlDay`);
    expect(noRank.body).toEqual(
      badRequest([{ field: 'rankBy', message: 'rankBy must be one of the following values: pnlDay, pnlWeek, pnlMonth, pnlAllTime' }]),
    );
    const badOrder = await get(`${ALL_PNL}?order=up&orderBy=pnlYear&rankBy=pnlDay`);
    expect(badOrder.body).toEqual(
      badRequest([
        { field: 'order', message: 'order must be one of the following values: asc, desc' },
        { field: 'orderBy', message: 'orderBy must be one of the following values: pnlDay, pnlWeek, pnlMonth, pnlAllTime' },
      ]),
    );
  });

  it('takes limit 25, 50 or 100 only, and an offset of 0 or more', async () => {
    const q = `${ALL_PNL}?order=desc&orderBy=pnlDay&rankBy=pnlDay`;
    for (const limit of ['10', '30', '101', '0', 'x', '25.5']) {
      const res = await get(`${q}&limit=${limit}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest([{ field: 'limit', message: 'limit must be one of the following values: 25, 50, 100' }]));
    }
    expect((await get(`${q}&offset=-1`)).body).toEqual(badRequest([{ field: 'offset', message: 'offset must not be less than 0' }]));
    expect((await get(`${q}&offset=x`)).body).toEqual(badRequest([{ field: 'offset', message: 'offset must be an integer number' }]));
    expect((await get(`${q}&page=2`)).body).toEqual(badRequest([{ field: 'page', message: 'property page should not exist' }]));
  });
});
