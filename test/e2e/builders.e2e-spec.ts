import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { ExchangeFactsWriter, FillProjector } from '#market';
import { address, feed, fillsBlock, startedWriter, wireFill } from '#testing';
import { ApiHarness } from '../support/api-harness.js';

const LIST = (timeframe: string) => `/api/external/builders/list/timeframe/${timeframe}`;
const PROFILE = (builder: string) => `/api/external/builders/${builder}/profile`;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

// The newest fill is the exchange "now": its hour ends at 13:00, so every period ends there.
const NOW = Date.UTC(2026, 2, 15, 12, 30);
const TO = Date.UTC(2026, 2, 15, 13);
const SPANS = { '24h': 24 * HOUR, '7d': 7 * DAY, '30d': 30 * DAY } as const;
type Timeframe = keyof typeof SPANS | 'all';
const TIMEFRAMES: Timeframe[] = ['24h', '7d', '30d', 'all'];
/** [from, to) of a timeframe and of its previous period, in whole hours. */
const windowOf = (tf: Timeframe) =>
  tf === 'all' ? { from: -Infinity, prevFrom: -Infinity } : { from: TO - SPANS[tf], prevFrom: TO - 2 * SPANS[tf] };

// A: the busy builder, written in checksum case by the feed (stored and answered lower-case).
const A = '0xAbCdEf00000000000000000000000000000000a1';
const B = address(0xb2);
// C: fills only in the 24 hours before the 24h period. D: only 70 days ago.
const C = address(0xc3);
const D = address(0xd4);
const WALLETS = Array.from({ length: 40 }, (_, i) => address(0x1000 + i));
const MAKER = address(0x3a3e);
const COINS = ['BTC', 'ETH', 'xyz:GOLD', '@107'];

interface Trade {
  time: number;
  wallet: string;
  coin: string;
  px: string;
  sz: string;
  builder: string | null;
  builderFee: string | null;
}

/** 300 trades over 45 days from a seeded generator, plus trades on each side of every period boundary. */
function trades(): Trade[] {
  let seed = 11;
  const next = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)]!;
  const trade = (time: number, builder: string | null): Trade => ({
    time,
    wallet: pick(WALLETS),
    coin: pick(COINS),
    px: (1 + Math.floor(next() * 500_000) / 100).toFixed(2),
    sz: (Math.floor(next() * 10_000) / 1_000 + 0.001).toFixed(3),
    builder,
    builderFee: builder === null ? null : (Math.floor(next() * 25_000) / 100).toFixed(2),
  });
  const list: Trade[] = Array.from({ length: 300 }, () => {
    const r = next();
    return trade(NOW - Math.floor(next() * 45 * DAY), r < 0.5 ? A : r < 0.75 ? B : null);
  });
  for (const tf of ['24h', '7d', '30d'] as const) {
    const { from, prevFrom } = windowOf(tf);
    for (const time of [from, from - 1, prevFrom, prevFrom - 1]) list.push(trade(time, A));
  }
  for (const h of [30, 36, 40]) list.push(trade(TO - h * HOUR, C));
  list.push(trade(NOW - 70 * DAY, D));
  list.push(trade(NOW, B));
  return list.sort((a, b) => a.time - b.time);
}
const TRADES = trades();

const notional = (t: Trade) => new Big(t.px).times(t.sz);
const sum = (list: Trade[], value: (t: Trade) => Big.BigSource) => list.reduce((s, t) => s.plus(value(t)), new Big(0));
const revenue = (list: Trade[]) => sum(list, (t) => t.builderFee ?? 0);
const volume = (list: Trade[]) => sum(list, notional);
const users = (list: Trade[]) => new Set(list.map((t) => t.wallet)).size;
const routed = (builder: string, from = -Infinity, to = TO) =>
  TRADES.filter((t) => t.builder?.toLowerCase() === builder.toLowerCase() && t.time >= from && t.time < to);
// Fees over notional, rounded half up to 8 places.
const feeRate = (builder: string) =>
  Number(
    revenue(routed(builder))
      .div(volume(routed(builder)))
      .round(8, Big.roundHalfUp)
      .toFixed(),
  );
const num = (b: Big) => Number(b.toFixed());

function expectedList(tf: Timeframe) {
  const { from, prevFrom } = windowOf(tf);
  return [A, B, C, D]
    .filter((b) => routed(b, prevFrom).length > 0)
    .map((b) => {
      const current = routed(b, from);
      const previous = routed(b, prevFrom, from);
      return {
        refCode: null,
        address: b.toLowerCase(),
        revenue: num(revenue(current)),
        timeJoined: iso(routed(b)[0]!.time),
        createdAt: iso(routed(b)[0]!.time),
        usageFee: feeRate(b),
        users: users(current),
        volume: num(volume(current)),
        revenuePrev: tf === 'all' ? null : num(revenue(previous)),
        volumePrev: tf === 'all' ? null : num(volume(previous)),
        usersPrev: tf === 'all' ? null : users(previous),
        _revenue: revenue(current),
      };
    })
    .sort((x, y) => y._revenue.cmp(x._revenue) || (x.address < y.address ? -1 : 1))
    .map(({ _revenue, ...row }) => row);
}

/** Revenue and users per hour or UTC day in [from, to), oldest first, as [revenue, users, timestamp]. */
function series(builder: string, size: number, from: number, to: number) {
  const rows: unknown[][] = [];
  for (let t = from; t < to; t += size) {
    const list = routed(builder, t, t + size);
    rows.push([num(revenue(list)), users(list), iso(t)]);
  }
  return { columns: ['revenue', 'users', 'timestamp'], data: rows };
}

function coinDistribution(builder: string, tf: Timeframe) {
  const list = routed(builder, windowOf(tf).from);
  const rows = COINS.map((coin) => ({
    coin,
    volume: volume(list.filter((t) => t.coin === coin)),
    wallets: users(list.filter((t) => t.coin === coin)),
  }))
    .filter((c) => c.wallets > 0)
    .sort((x, y) => y.volume.cmp(x.volume) || (x.coin < y.coin ? -1 : 1));
  return {
    columns: ['coin', 'volume', 'numWallets', 'exchangeType'],
    data: rows.map((c) => [c.coin, num(c.volume), c.wallets, c.coin.startsWith('@') ? 'Spot' : 'Perp']),
  };
}

/** Wallets by volume (ties by address), cut at ceil(n * 1, 5, 10, 25, 50 %); empty groups left out; rows from Rest up. */
function userDistribution(builder: string, tf: Timeframe) {
  const byWallet = new Map<string, Big>();
  for (const t of routed(builder, windowOf(tf).from)) byWallet.set(t.wallet, (byWallet.get(t.wallet) ?? new Big(0)).plus(notional(t)));
  const ranked = [...byWallet].sort(([a, x], [b, y]) => y.cmp(x) || (a < b ? -1 : 1)).map(([, v]) => v);
  const n = ranked.length;
  const bounds = [0, ...[1, 5, 10, 25, 50].map((p) => Math.ceil((n * p) / 100)), n];
  const labels = ['Top 1%', '1–5%', '5–10%', '10–25%', '25–50%', 'Rest'];
  const groups = labels
    .map((label, g) => ({ label, members: ranked.slice(bounds[g], bounds[g + 1]) }))
    .filter((g) => g.members.length > 0)
    .map((g, i, present) => [
      g.members.length,
      num(g.members.reduce((s, v) => s.plus(v), new Big(0))),
      num(g.members[g.members.length - 1]!),
      i === 0 ? null : num(present[i - 1]!.members[present[i - 1]!.members.length - 1]!),
      g.label,
    ]);
  return { columns: ['numWallets', 'volume', 'minVolume', 'maxVolume', 'percentileGroup'], data: groups.reverse() };
}

/** The fill (in time, tid order) that takes the cumulative revenue to each level. */
function milestones(builder: string) {
  const levels: Array<[number, string]> = [
    [1_000, '$1K'],
    [10_000, '$10K'],
    [100_000, '$100K'],
    [1_000_000, '$1M'],
    [10_000_000, '$10M'],
  ];
  const fills = routed(builder)
    .map((t) => ({ t, tid: TRADES.indexOf(t) + 1 }))
    .sort((x, y) => x.t.time - y.t.time || x.tid - y.tid);
  return levels.map(([level, label]) => {
    let total = new Big(0);
    const hit = fills.find(({ t }) => (total = total.plus(t.builderFee!)).gte(level));
    return { revenue: level, label, done: hit !== undefined, date: hit ? iso(hit.t.time) : null };
  });
}

function expectedProfile(builder: string) {
  const all = routed(builder);
  const byDay = new Map<number, Big>();
  for (const t of all)
    byDay.set(Math.floor(t.time / DAY) * DAY, (byDay.get(Math.floor(t.time / DAY) * DAY) ?? new Big(0)).plus(t.builderFee!));
  const [bestDay, bestRevenue] = [...byDay].sort(([a, x], [b, y]) => y.cmp(x) || a - b)[0]!;
  const dayEnd = Date.UTC(2026, 2, 16);
  return {
    info: {
      address: builder.toLowerCase(),
      code: null,
      name: null,
      url: null,
      xUrl: null,
      xUserId: null,
      xUser: null,
      firstActivityAt: iso(all[0]!.time),
      revenue: num(revenue(all)),
    },
    hyperliquidVolume24h: num(volume(TRADES.filter((t) => t.time >= TO - DAY && t.time < TO))),
    fee: feeRate(builder),
    biggestDay: { revenue: num(bestRevenue), date: iso(bestDay) },
    revenueMilestones: milestones(builder),
    analytics: {
      '24h': series(builder, HOUR, TO - DAY, TO),
      '7d': series(builder, DAY, dayEnd - 7 * DAY, dayEnd),
      '30d': series(builder, DAY, dayEnd - 30 * DAY, dayEnd),
      all: series(builder, DAY, Math.floor(all[0]!.time / DAY) * DAY, dayEnd),
    },
    coinVolumeDistribution: Object.fromEntries(TIMEFRAMES.map((tf) => [tf, coinDistribution(builder, tf)])),
    userVolumeDistribution: Object.fromEntries(TIMEFRAMES.map((tf) => [tf, userDistribution(builder, tf)])),
  };
}

const badRequest = (field: string, message: string) => ({
  status: 'error',
  message: `Invalid parameters: ${field}`,
  errors: [{ field, message }],
});

describe('Builders', () => {
  let api: ApiHarness;
  let token: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    api = await ApiHarness.start();
    ({ token } = await api.createConsumer({ name: 'builders-suite' }));
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
    // Each trade is a block: the taker's fill (through the builder, if any) and the maker's, one tid.
    const blocks = TRADES.map((t, i) =>
      fillsBlock(100 + i, t.time, [
        [
          t.wallet,
          wireFill({
            coin: t.coin,
            tid: 1 + i,
            time: t.time,
            side: 'B',
            px: t.px,
            sz: t.sz,
            ...(t.builder ? { builder: t.builder, builderFee: t.builderFee! } : {}),
          }),
        ],
        [MAKER, wireFill({ coin: t.coin, tid: 1 + i, time: t.time, side: 'A', px: t.px, sz: t.sz, crossed: false })],
      ]),
    );
    const facts = await startedWriter(dataSource, ExchangeFactsWriter);
    const projector = await startedWriter(dataSource, FillProjector);
    for (let i = 0; i < blocks.length; i += 100) {
      await facts.writeBlocks(feed(blocks.slice(i, i + 100)), 'node');
      while ((await projector.project('node', 120)).more);
    }
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await api?.close();
  });

  const get = (path: string) => api.get(path, token);

  it('seeds trades on both sides of every period boundary', () => {
    expect(TRADES).toHaveLength(300 + 12 + 3 + 1 + 1);
    expect(TRADES[TRADES.length - 1]!.time).toBe(NOW);
    // A crosses two milestones, not the third.
    expect(revenue(routed(A)).gt(10_000) && revenue(routed(A)).lt(100_000)).toBe(true);
  });

  describe('GET /api/external/builders/list/timeframe/{timeframe}', () => {
    it.each(TIMEFRAMES)('lists the builders of %s by revenue, with the previous period', async (tf) => {
      const res = await get(LIST(tf));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ builders: expectedList(tf) });
    });

    it('keeps a builder active only in the previous period, with zeros now', async () => {
      const rows = (await get(LIST('24h'))).body.builders as Array<Record<string, unknown>>;
      const c = routed(C);
      expect(rows.map((r) => r.address)).toEqual([A.toLowerCase(), B, C]);
      expect(rows[2]).toEqual({
        refCode: null,
        address: C,
        revenue: 0,
        timeJoined: iso(c[0]!.time),
        createdAt: iso(c[0]!.time),
        usageFee: feeRate(C),
        users: 0,
        volume: 0,
        revenuePrev: num(revenue(c)),
        volumePrev: num(volume(c)),
        usersPrev: users(c),
      });
      // D traded 70 days ago: only in `all`.
      expect(((await get(LIST('30d'))).body.builders as Array<{ address: string }>).map((r) => r.address)).not.toContain(D);
      expect(((await get(LIST('all'))).body.builders as Array<{ address: string }>).map((r) => r.address)).toContain(D);
    });

    it('refuses another timeframe with a 400 naming it', async () => {
      for (const tf of ['1y', '24H', '0']) {
        const res = await get(LIST(tf));
        expect(res.status).toBe(400);
        expect(res.body).toEqual(badRequest('timeframe', 'timeframe must be one of the following values: 24h, 7d, 30d, all'));
      }
    });
  });

  describe('GET /api/external/builders/{builder}/profile', () => {
    it('answers every field of the profile, recomputed from the trades', async () => {
      const res = await get(PROFILE(A));
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expectedProfile(A));
      // Spot pairs are labelled so; the user groups leave out empty ones and name the rest from Rest up.
      expect(res.body.coinVolumeDistribution.all.data.map((r: unknown[]) => r[3]).sort()).toEqual(['Perp', 'Perp', 'Perp', 'Spot']);
      expect(res.body.userVolumeDistribution.all.data.map((r: unknown[]) => r[4])).toEqual([
        'Rest',
        '25–50%',
        '10–25%',
        '5–10%',
        '1–5%',
        'Top 1%',
      ]);
      expect(res.body.revenueMilestones.map((m: { done: boolean }) => m.done)).toEqual([true, true, false, false, false]);
      expect(res.body.analytics['24h'].data).toHaveLength(24);
      expect(res.body.analytics['7d'].data).toHaveLength(7);
      expect(res.body.analytics['30d'].data).toHaveLength(30);
    });

    it('reads the address in any case, and profiles the other builders too', async () => {
      const lower = await get(PROFILE(A.toLowerCase()));
      expect(lower.body).toEqual(expectedProfile(A));
      expect((await get(PROFILE(A.toUpperCase().replace('0X', '0x')))).body).toEqual(lower.body);
      for (const b of [B, C, D]) expect((await get(PROFILE(b))).body).toEqual(expectedProfile(b));
      // D's 24h series is empty buckets, its distributions of recent timeframes empty tables.
      const d = (await get(PROFILE(D))).body;
      expect(d.analytics['24h'].data.every((r: unknown[]) => r[0] === 0 && r[1] === 0)).toBe(true);
      expect(d.coinVolumeDistribution['24h'].data).toEqual([]);
      expect(d.userVolumeDistribution['30d'].data).toEqual([]);
    });

    it('answers 404 for an address no fill went through, 400 for something else', async () => {
      const unknown = await get(PROFILE(MAKER));
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ status: 'error', message: `Unknown builder: ${MAKER}` });
      for (const bad of ['nope', '0x123', `${MAKER}0`]) {
        const res = await get(PROFILE(bad));
        expect(res.status).toBe(400);
        expect(res.body).toEqual(badRequest('builder', 'builder must be a 0x address of 40 hex digits'));
      }
    });

    it('refuses query fields', async () => {
      const res = await get(`${PROFILE(A)}?timeframe=24h`);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'timeframe', message: 'property timeframe should not exist' }]);
    });
  });
});
