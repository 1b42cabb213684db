import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { ConfigError, loadConfig } from '#config';
import { dataSourceOptions } from '#database';
import type { PositionStateRecord } from '#exchange';
import { MarketStateWriter } from '#market';
import { address, exchangeState, positionState, startedWriter, walletState } from '#testing';
import { ApiHarness } from '../support/api-harness.js';

const HOLDERS = '/api/external/hype/holders';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

// The latest state update is the exchange "now"; updates span 35 days, with one exactly 7 days and one
// exactly 24 hours before it, and others just either side. Update 2 had no HYPE price.
const LAST = Date.UTC(2026, 2, 15, 12);
const UPDATES = [
  -35 * DAY,
  -20 * DAY,
  -8 * DAY,
  -7 * DAY,
  -7 * DAY + 15 * MIN,
  -2 * DAY,
  -DAY - 15 * MIN,
  -DAY,
  -DAY + 15 * MIN,
  -6 * HOUR,
  0,
].map((d) => LAST + d);
const K = UPDATES.length;
const PX = (k: number): string | null => (k === 2 ? null : new Big(30).plus(new Big(k).times('1.25')).toFixed());
const px = (k: number) => new Big(PX(k) ?? 0);

const SUPPLY = '1234567.5';

interface Wallet {
  address: string;
  first: number;
  /** HYPE [spot, staked] at update k (k >= first). */
  hype: (k: number) => [string, string];
  perpEquity: string;
  allTimePnl?: string;
  positions?: PositionStateRecord[];
}

// Hand-made wallets: H1 holds the same all along (one history row), H2 changes at updates 2 and 5, H3
// only stakes, H4 buys in the last 24 hours, H5 sells everything at the last update (no longer a
// holder), H6 never holds, H7 sells out at update 3 (exactly 7 days back) and buys again at update 8.
const H = (n: number) => address(0xe0 + n);
const HAND: Wallet[] = [
  {
    address: H(1),
    first: 0,
    hype: () => ['1000', '0'],
    perpEquity: '360',
    allTimePnl: '1500',
    // Long 1 from 100, mark 90, liquidation 60: progress (100 - 90) / (100 - 60) = 0.25.
    positions: [positionState('BTC', { szi: '1', entryPx: '100', positionValue: '90', unrealizedPnl: '-10', liquidationPx: '60' })],
  },
  { address: H(2), first: 0, hype: (k) => [k < 2 ? '500' : k < 5 ? '800' : '650.5', '200'], perpEquity: '20000' },
  { address: H(3), first: 1, hype: () => ['0', '3000'], perpEquity: '50' },
  { address: H(4), first: 0, hype: (k) => [k < 9 ? '0' : '42', '0'], perpEquity: '1000' },
  { address: H(5), first: 0, hype: (k) => [k < 10 ? '77' : '0', '0'], perpEquity: '1000' },
  { address: H(6), first: 0, hype: () => ['0', '0'], perpEquity: '1000' },
  { address: H(7), first: 0, hype: (k) => [k < 3 ? '10' : k < 8 ? '0' : '5', '0'], perpEquity: '1000' },
];

// 510 more, in triples with equal HYPE (i, i + 200, i + 400), every 50th with none, first seen at
// update 0, 3, 4 or 8, some changing at updates 5 and 9.
const BULK: Wallet[] = Array.from({ length: 510 }, (_, i) => {
  const j = i % 200;
  const none = i % 50 === 49;
  return {
    address: address(0xb0000 + i),
    first: [0, 3, 4, 8][i % 4]!,
    perpEquity: `${1000 + i}`,
    hype: (k: number): [string, string] => {
      if (none) return ['0', '0'];
      let spot = new Big(j).times(10).plus('0.5');
      if (k >= 5 && j % 3 === 0) spot = spot.plus(50);
      if (k >= 9 && j % 5 === 0) spot = spot.plus('7.25');
      return [spot.toFixed(), j % 7 === 0 ? '25' : '0'];
    },
  };
});
const WALLETS = [...HAND, ...BULK];

type Field = 'totalAmount' | 'spotAmount' | 'stakedAmount' | 'totalAmountUsd' | 'accountValue';

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
const num = (b: Big.BigSource) => Number(new Big(b).toFixed());

/** The balance rows holder_history should hold: the first non-zero balance, then every change. */
function historyRows(w: Wallet): Array<{ k: number; spot: Big; staked: Big }> {
  const rows: Array<{ k: number; spot: Big; staked: Big }> = [];
  let previous: [string, string] = ['0', '0'];
  for (let k = w.first; k < K; k++) {
    const [spot, staked] = w.hype(k);
    if (!new Big(spot).eq(previous[0]) || !new Big(staked).eq(previous[1])) rows.push({ k, spot: new Big(spot), staked: new Big(staked) });
    previous = [spot, staked];
  }
  return rows;
}

function historyAt(w: Wallet, at: number) {
  const row = historyRows(w)
    .filter((r) => UPDATES[r.k]! <= at)
    .pop();
  if (!row) return null;
  return {
    id: `${w.address}:${UPDATES[row.k]}`,
    address: w.address,
    spotAmount: num(row.spot),
    spotAmountUsd: num(row.spot.times(px(row.k))),
    stakedAmount: num(row.staked),
    stakedAmountUsd: num(row.staked.times(px(row.k))),
    totalAmount: num(row.spot.plus(row.staked)),
    totalAmountUsd: num(row.spot.plus(row.staked).times(px(row.k))),
    createdAt: iso(UPDATES[row.k]!),
  };
}

interface Holder {
  address: string;
  values: Record<Field, Big>;
  entry: Record<string, unknown>;
}

/** Every holder as the route should show it, rank left to fill in. */
function holders(): Holder[] {
  return WALLETS.filter((w) => {
    const [spot, staked] = w.hype(K - 1);
    return new Big(spot).plus(staked).gt(0);
  }).map((w) => {
    const [spotText, stakedText] = w.hype(K - 1);
    const spot = new Big(spotText);
    const staked = new Big(stakedText);
    const total = spot.plus(staked);
    const equity = new Big(w.perpEquity);
    const open = w.positions ?? [];
    const openValue = open.reduce((s, p) => s.plus(p.positionValue), new Big(0));
    const ratio = open.length ? num(openValue.div(equity).round(8, Big.roundHalfUp)) : null;
    const values: Record<Field, Big> = {
      totalAmount: total,
      spotAmount: spot,
      stakedAmount: staked,
      totalAmountUsd: total.times(px(K - 1)),
      accountValue: equity,
    };
    return {
      address: w.address,
      values,
      entry: {
        address: w.address,
        spotAmount: num(spot),
        spotAmountUsd: num(spot.times(px(K - 1))),
        stakedAmount: num(staked),
        stakedAmountUsd: num(staked.times(px(K - 1))),
        totalAmount: num(total),
        totalAmountUsd: num(total.times(px(K - 1))),
        earliestActivityAt: iso(UPDATES[w.first]!),
        accountValue: num(equity),
        percentOfCirculatingSupply: num(total.times(100).div(SUPPLY).round(8, Big.roundHalfUp)),
        wallet: {
          xUserId: null,
          displayName: null,
          emoji: null,
          verified: false,
          segments: [cohort(SIZE_BOUNDS, equity), cohort(PNL_BOUNDS, new Big(w.allTimePnl ?? 0))],
          address: w.address,
          favoriteCount: 0,
          totalEquity: num(equity.plus(total.times(px(K - 1)))),
          earliestActivityAt: iso(UPDATES[w.first]!),
          perpPnl: num(w.allTimePnl ?? 0),
          perpEquity: num(equity),
          exposureRatio: ratio,
          perpBias: ratio,
          openValue: num(openValue),
          sumUpnl: num(open.reduce((s, p) => s.plus(p.unrealizedPnl), new Big(0))),
          vault: null,
          closestLiq: open.length ? { coin: 'BTC', progress: 0.25 } : { coin: null, progress: null },
          mid: null,
          tidewatchId: null,
        },
        history: { '24h': historyAt(w, LAST - DAY), '7d': historyAt(w, LAST - 7 * DAY) },
      },
    };
  });
}
const HOLDERS_EXPECTED = holders();

/** All holders for one request: ranked by rankBy in rankOrder, ordered by orderBy in order, ties by address. */
function expected(
  order: 'asc' | 'desc' = 'desc',
  orderBy: Field = 'totalAmount',
  rankBy: Field = 'totalAmount',
  rankOrder: 'asc' | 'desc' = 'desc',
) {
  const byAddress = (a: Holder, b: Holder) => (a.address < b.address ? -1 : 1);
  const rankSign = rankOrder === 'desc' ? -1 : 1;
  const ranks = new Map(
    [...HOLDERS_EXPECTED]
      .sort((a, b) => rankSign * a.values[rankBy].cmp(b.values[rankBy]) || byAddress(a, b))
      .map((h, r) => [h.address, r + 1]),
  );
  const sign = order === 'desc' ? -1 : 1;
  return [...HOLDERS_EXPECTED]
    .sort((a, b) => sign * a.values[orderBy].cmp(b.values[orderBy]) || byAddress(a, b))
    .map((h) => ({ ...h.entry, rank: ranks.get(h.address) }));
}

const badRequest = (field: string, message: string) => ({
  status: 'error',
  message: `Invalid parameters: ${field}`,
  errors: [{ field, message }],
});

describe('HYPE holders', () => {
  let api: ApiHarness;
  let token: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    api = await ApiHarness.start({ env: { HYPE_CIRCULATING_SUPPLY: SUPPLY } });
    ({ token } = await api.createConsumer({ name: 'holders-suite' }));
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
    const states = await startedWriter(dataSource, MarketStateWriter);
    for (let k = 0; k < K; k++) {
      const update = WALLETS.filter((w) => k >= w.first).map((w) => {
        const [spotHype, stakedHype] = w.hype(k);
        return walletState(w.address, {
          perpEquity: w.perpEquity,
          allTimePnl: w.allTimePnl ?? '0',
          spotHype,
          stakedHype,
          positions: w.positions ?? [],
        });
      });
      expect((await states.apply(exchangeState(200 + k, UPDATES[k]!, update, PX(k)))).applied).toBe(true);
    }
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await api?.close();
  });

  const get = (path: string) => api.get(path, token);

  it('seeds 505 holders over more than 30 days, 12 wallets without HYPE', () => {
    expect(UPDATES[K - 1]! - UPDATES[0]!).toBeGreaterThan(30 * DAY);
    expect(HOLDERS_EXPECTED).toHaveLength(505);
    expect(WALLETS.length - HOLDERS_EXPECTED.length).toBe(12);
  });

  it('answers the first 500 holders by total amount by default, then the rest', async () => {
    const all = expected();
    const first = await get(HOLDERS);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ items: all.slice(0, 500), totalCount: 505 });
    expect((await get(`${HOLDERS}?offset=500`)).body).toEqual({ items: all.slice(500), totalCount: 505 });
    expect((await get(`${HOLDERS}?limit=500&order=desc&orderBy=totalAmount&rankBy=totalAmount&rankOrder=desc`)).body).toEqual(first.body);
    expect((await get(`${HOLDERS}?offset=600`)).body).toEqual({ items: [], totalCount: 505 });
  });

  it('shows the hand-made wallets as worked out by hand', async () => {
    const items = [...(await get(HOLDERS)).body.items, ...(await get(`${HOLDERS}?offset=500`)).body.items] as Array<
      Record<string, unknown> & { address: string }
    >;
    expect(items).toHaveLength(505);
    const byAddress = new Map(items.map((h) => [h.address, h]));
    // Not holders: sold everything, never held.
    expect(byAddress.has(H(5)) || byAddress.has(H(6))).toBe(false);
    // H3 stakes 3000, the most of all: rank 1. HYPE at the last update: 30 + 10 * 1.25 = 42.5.
    expect(items[0]).toMatchObject({
      address: H(3),
      rank: 1,
      spotAmount: 0,
      stakedAmount: 3000,
      totalAmount: 3000,
      totalAmountUsd: 127_500,
      accountValue: 50,
    });
    // 3000 * 100 / 1234567.5: 1234567.5 * 0.243 = 299999.9025, and 0.0975 / 1234567.5 = 0.0000000789..., so 0.2430000789... -> 0.24300008.
    expect(items[0]!.percentOfCirculatingSupply).toBe(0.24300008);
    expect(byAddress.get(H(1))).toMatchObject({
      spotAmount: 1000,
      spotAmountUsd: 42_500,
      totalAmountUsd: 42_500,
      accountValue: 360,
      wallet: expect.objectContaining({
        totalEquity: 42_860,
        exposureRatio: 0.25,
        perpBias: 0.25,
        openValue: 90,
        sumUpnl: -10,
        closestLiq: { coin: 'BTC', progress: 0.25 },
        segments: [1, 11],
      }),
      // One row, at the first update (HYPE at 30).
      history: {
        '24h': {
          id: `${H(1)}:${UPDATES[0]}`,
          address: H(1),
          spotAmount: 1000,
          spotAmountUsd: 30_000,
          stakedAmount: 0,
          stakedAmountUsd: 0,
          totalAmount: 1000,
          totalAmountUsd: 30_000,
          createdAt: iso(UPDATES[0]!),
        },
        '7d': {
          id: `${H(1)}:${UPDATES[0]}`,
          address: H(1),
          spotAmount: 1000,
          spotAmountUsd: 30_000,
          stakedAmount: 0,
          stakedAmountUsd: 0,
          totalAmount: 1000,
          totalAmountUsd: 30_000,
          createdAt: iso(UPDATES[0]!),
        },
      },
    });
    // H2: 24h back is the row of update 5 (HYPE 36.25); 7 days back the row of update 2, which had no HYPE price.
    expect(byAddress.get(H(2))!.history).toEqual({
      '24h': {
        id: `${H(2)}:${UPDATES[5]}`,
        address: H(2),
        spotAmount: 650.5,
        spotAmountUsd: 23_580.625,
        stakedAmount: 200,
        stakedAmountUsd: 7250,
        totalAmount: 850.5,
        totalAmountUsd: 30_830.625,
        createdAt: iso(UPDATES[5]!),
      },
      '7d': {
        id: `${H(2)}:${UPDATES[2]}`,
        address: H(2),
        spotAmount: 800,
        spotAmountUsd: 0,
        stakedAmount: 200,
        stakedAmountUsd: 0,
        totalAmount: 1000,
        totalAmountUsd: 0,
        createdAt: iso(UPDATES[2]!),
      },
    });
    // H4 bought 6 hours ago: nothing before. H7's sale exactly 7 days back is its row then, and still 24 hours back.
    expect(byAddress.get(H(4))!.history).toEqual({ '24h': null, '7d': null });
    const sold = {
      id: `${H(7)}:${UPDATES[3]}`,
      address: H(7),
      spotAmount: 0,
      spotAmountUsd: 0,
      stakedAmount: 0,
      stakedAmountUsd: 0,
      totalAmount: 0,
      totalAmountUsd: 0,
      createdAt: iso(UPDATES[3]!),
    };
    expect(byAddress.get(H(7))!.history).toEqual({ '24h': sold, '7d': sold });
  });

  it.each([
    ['asc', 'spotAmount', 'stakedAmount', 'asc'],
    ['desc', 'totalAmountUsd', 'accountValue', 'desc'],
    ['asc', 'accountValue', 'totalAmount', 'desc'],
    ['desc', 'stakedAmount', 'spotAmount', 'asc'],
    ['asc', 'totalAmount', 'totalAmount', 'desc'],
  ] as const)(
    'walks order=%s orderBy=%s rankBy=%s rankOrder=%s by offset: every holder once, in order',
    async (order, orderBy, rankBy, rankOrder) => {
      const all = expected(order, orderBy, rankBy, rankOrder);
      const seen: Array<{ address: string }> = [];
      for (let offset = 0; offset < all.length; offset += 120) {
        const res = await get(
          `${HOLDERS}?order=${order}&orderBy=${orderBy}&rankBy=${rankBy}&rankOrder=${rankOrder}&offset=${offset}&limit=120`,
        );
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ items: all.slice(offset, offset + 120), totalCount: 505 });
        seen.push(...res.body.items);
      }
      expect(seen).toHaveLength(505);
      expect(new Set(seen.map((h) => h.address)).size).toBe(505);
      // Ties (three wallets of each amount) keep the address order.
      expect(seen).toEqual(all);
    },
  );

  it('takes a small limit', async () => {
    expect((await get(`${HOLDERS}?limit=1&offset=3`)).body).toEqual({ items: expected().slice(3, 4), totalCount: 505 });
  });

  it('refuses bad parameters with a 400 naming the field', async () => {
    const cases: Array<[string, string, string]> = [
      ['limit=0', 'limit', 'limit must not be less than 1'],
      ['limit=501', 'limit', 'limit must not be greater than 500'],
      ['limit=x', 'limit', 'limit must be an integer number'],
      ['offset=-1', 'offset', 'offset must not be less than 0'],
      ['order=up', 'order', 'order must be one of the following values: asc, desc'],
      ['rankOrder=top', 'rankOrder', 'rankOrder must be one of the following values: asc, desc'],
      [
        'orderBy=spotAmountUsd',
        'orderBy',
        'orderBy must be one of the following values: totalAmount, spotAmount, stakedAmount, totalAmountUsd, accountValue',
      ],
      [
        'rankBy=rank',
        'rankBy',
        'rankBy must be one of the following values: totalAmount, spotAmount, stakedAmount, totalAmountUsd, accountValue',
      ],
      ['coin=HYPE', 'coin', 'property coin should not exist'],
    ];
    for (const [query, field, message] of cases) {
      const res = await get(`${HOLDERS}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest(field, message));
    }
  });

  it('reads HYPE_CIRCULATING_SUPPLY as a positive decimal with a default', () => {
    expect(loadConfig({}).HYPE_CIRCULATING_SUPPLY).toBe('333928180');
    expect(loadConfig({ HYPE_CIRCULATING_SUPPLY: '400000000.5' }).HYPE_CIRCULATING_SUPPLY).toBe('400000000.5');
    for (const bad of ['0', '-5', 'lots', '1e9']) expect(() => loadConfig({ HYPE_CIRCULATING_SUPPLY: bad })).toThrow(ConfigError);
  });
});
