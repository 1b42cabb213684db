import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { useTestEnvironment } from '#testing';
import { openFactsDatabase, startedWriter } from '#testing';
import { FillProjector } from '../../projections/fill.projector.js';
import { address, feed, fillsBlock, wireFill } from '#testing';
import type { BuilderTimeframe } from './builder-timeframes.js';
import { BuildersQueries } from './builders.queries.js';
import type { BuilderRow } from './builders.types.js';

const config = useTestEnvironment();
let dataSource: DataSource;
const queries = new BuildersQueries();

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (iso: string): number => Date.parse(iso);
// The newest fill, so the exchange "now": the current hour ends at 13:00.
const NOW = at('2026-06-28T12:30:00.000Z');
// Literal periods [from, to) and previous periods, in whole UTC hours.
const WINDOWS: Record<Exclude<BuilderTimeframe, 'all'>, { from: number; prevFrom: number }> = {
  '24h': { from: at('2026-06-27T13:00:00Z'), prevFrom: at('2026-06-26T13:00:00Z') },
  '7d': { from: at('2026-06-21T13:00:00Z'), prevFrom: at('2026-06-14T13:00:00Z') },
  '30d': { from: at('2026-05-29T13:00:00Z'), prevFrom: at('2026-04-29T13:00:00Z') },
};
const TO = at('2026-06-28T13:00:00Z');

// One checksum-cased builder address: rows are keyed by the lower-cased one.
const BUILDERS = ['0xAbCd00000000000000000000000000000000b001', address(0xb002), address(0xb003)];
const WALLETS = Array.from({ length: 30 }, (_, i) => address(0x1000 + i));
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

/** 400 trades over 40 days with a seeded generator, plus trades on each side of every period boundary. */
function trades(): Trade[] {
  let seed = 7;
  const next = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)]!;
  const trade = (time: number): Trade => {
    const builder = next() < 0.8 ? pick(BUILDERS) : null;
    return {
      time,
      wallet: pick(WALLETS),
      coin: pick(COINS),
      px: (1 + Math.floor(next() * 500_000) / 100).toFixed(2),
      sz: (Math.floor(next() * 10_000) / 1_000 + 0.001).toFixed(3),
      builder,
      builderFee: builder === null ? null : (Math.floor(next() * 1_000_000) / 1_000_000).toFixed(6),
    };
  };
  const list = Array.from({ length: 400 }, () => trade(NOW - Math.floor(next() * 40 * DAY)));
  for (const { from, prevFrom } of Object.values(WINDOWS)) {
    for (const time of [from, from - 1, prevFrom, prevFrom - 1]) list.push({ ...trade(time), builder: BUILDERS[0]!, builderFee: '0.25' });
  }
  list.push({ ...trade(NOW), builder: BUILDERS[1]!, builderFee: '0.125' });
  return list.sort((a, b) => a.time - b.time);
}

const TRADES = trades();
const notional = (t: Trade): Big => new Big(t.px).times(t.sz);
const routed = (builder: string, from = -Infinity, to = TO): Trade[] =>
  TRADES.filter((t) => t.builder?.toLowerCase() === builder && t.time >= from && t.time < to);
const total = (list: Trade[], value: (t: Trade) => Big): string => list.reduce((s, t) => s.plus(value(t)), new Big(0)).toFixed();
const revenue = (list: Trade[]): string => total(list, (t) => new Big(t.builderFee ?? 0));
const volume = (list: Trade[]): string => total(list, notional);
const users = (list: Trade[]): number => new Set(list.map((t) => t.wallet)).size;
// Fees over notional, rounded half up to 8 places as SQL round() does.
const feeRate = (list: Trade[]): string => new Big(revenue(list)).div(volume(list)).round(8, Big.roundHalfUp).toFixed();

beforeAll(async () => {
  const opened = await openFactsDatabase(config.DATABASE_URL);
  dataSource = opened.dataSource;
  // Each trade is a block: the taker's fill (through the builder, if any) and the maker's.
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
  const projector = await startedWriter(dataSource, FillProjector);
  for (let i = 0; i < blocks.length; i += 100) {
    await opened.writer.writeBlocks(feed(blocks.slice(i, i + 100)), 'node');
    while ((await projector.project('node', 150)).more);
  }
});

afterAll(async () => {
  await dataSource?.destroy();
});

describe('builder aggregates from projected fills', () => {
  it('takes the newest projected fill as the exchange now', async () => {
    expect(TRADES.length).toBe(413);
    expect(await queries.newestFillTime(dataSource)).toBe(NOW);
  });

  it.each(['24h', '7d', '30d', 'all'] as const)('lists the builders of %s with the previous period, by revenue', async (timeframe) => {
    const window = timeframe === 'all' ? null : WINDOWS[timeframe];
    const expected: BuilderRow[] = BUILDERS.map((b) => b.toLowerCase())
      .filter((b) => routed(b, window?.prevFrom).length > 0)
      .map((b) => {
        const current = routed(b, window?.from);
        const previous = window ? routed(b, window.prevFrom, window.from) : null;
        return {
          builder: b,
          revenue: revenue(current),
          volume: volume(current),
          users: users(current),
          revenuePrev: previous && revenue(previous),
          volumePrev: previous && volume(previous),
          usersPrev: previous && users(previous),
          firstFillTime: routed(b)[0]!.time,
          usageFee: feeRate(routed(b)),
        };
      })
      .sort((a, b) => new Big(b.revenue).cmp(a.revenue) || (a.builder < b.builder ? -1 : 1));
    expect(expected.length).toBe(3);
    expect(await queries.rows(dataSource, timeframe, NOW)).toEqual(expected);
  });

  const B = BUILDERS[0]!.toLowerCase();

  it('keeps all-time totals with the exact first and last fill', async () => {
    const all = routed(B);
    expect(await queries.totals(dataSource, BUILDERS[0]!)).toEqual({
      builder: B,
      firstFillTime: all[0]!.time,
      lastFillTime: all[all.length - 1]!.time,
      revenue: revenue(all),
      volume: volume(all),
      fills: all.length,
      usageFee: feeRate(all),
    });
    expect(await queries.totals(dataSource, address(0xdead))).toBeNull();
  });

  it('gives hourly points for 24h and daily points for 7d, empty buckets included', async () => {
    const point = (from: number, to: number) => {
      const list = routed(B, from, to);
      return { time: from, revenue: revenue(list), volume: volume(list), users: users(list) };
    };
    const hours = Array.from({ length: 24 }, (_, i) => point(WINDOWS['24h'].from + i * HOUR, WINDOWS['24h'].from + (i + 1) * HOUR));
    expect(hours.some((p) => p.users === 0) && hours.some((p) => p.users > 0)).toBe(true);
    expect(await queries.series(dataSource, B, 'hour', WINDOWS['24h'].from, TO)).toEqual(hours);
    const dayStart = at('2026-06-22T00:00:00Z');
    const days = Array.from({ length: 7 }, (_, i) => point(dayStart + i * DAY, dayStart + (i + 1) * DAY));
    // Bounds inside a day widen to the whole day.
    expect(await queries.series(dataSource, B, 'day', dayStart + 5 * HOUR, at('2026-06-28T12:30:00Z'))).toEqual(days);
  });

  it('splits the volume by coin with distinct wallets', async () => {
    const list = routed(B, WINDOWS['30d'].from);
    const expected = COINS.map((coin) => ({
      coin,
      volume: volume(list.filter((t) => t.coin === coin)),
      wallets: users(list.filter((t) => t.coin === coin)),
    }))
      .filter((c) => c.wallets > 0)
      .sort((a, b) => new Big(b.volume).cmp(a.volume) || (a.coin < b.coin ? -1 : 1));
    expect(expected.length).toBe(4);
    expect(await queries.coinVolumes(dataSource, B, '30d', NOW)).toEqual(expected);
  });

  it('groups wallets by volume percentile', async () => {
    const byWallet = new Map<string, Big>();
    for (const t of routed(B)) byWallet.set(t.wallet, (byWallet.get(t.wallet) ?? new Big(0)).plus(notional(t)));
    const ranked = [...byWallet].sort(([a, x], [b, y]) => y.cmp(x) || (a < b ? -1 : 1)).map(([, v]) => v);
    const n = ranked.length;
    expect(n).toBe(30);
    // Cuts at ceil(n * p): 1, 2, 3, 8, 15 of 30 wallets.
    const cuts = [1, 5, 10, 25, 50].map((p) => Math.ceil((n * p) / 100));
    expect(cuts).toEqual([1, 2, 3, 8, 15]);
    const bounds = [0, ...cuts, n];
    const labels = ['Top 1%', '1–5%', '5–10%', '10–25%', '25–50%', 'Rest'];
    const expected = labels.map((group, g) => {
      const members = ranked.slice(bounds[g], bounds[g + 1]);
      return {
        group,
        wallets: members.length,
        volume: members.reduce((s, v) => s.plus(v), new Big(0)).toFixed(),
        minVolume: members[members.length - 1]!.toFixed(),
        maxVolume: g === 0 ? null : ranked[bounds[g]! - 1]!.toFixed(),
      };
    });
    expect(await queries.userVolumeGroups(dataSource, B, 'all', NOW)).toEqual(expected);
  });

  it('finds the biggest UTC day by revenue', async () => {
    const byDay = new Map<number, Big>();
    for (const t of routed(B)) {
      const day = Math.floor(t.time / DAY) * DAY;
      byDay.set(day, (byDay.get(day) ?? new Big(0)).plus(t.builderFee!));
    }
    const [date, best] = [...byDay].sort(([a, x], [b, y]) => y.cmp(x) || a - b)[0]!;
    expect(await queries.biggestDay(dataSource, B)).toEqual({ date, revenue: best.toFixed() });
  });

  it('finds the fill that took the cumulative revenue to each level', async () => {
    // Trades are in time order and their tids follow it, so the running sum runs down the list.
    const reach = (level: string): number | null => {
      let total = new Big(0);
      return routed(B).find((t) => (total = total.plus(t.builderFee!)).gte(level))?.time ?? null;
    };
    const levels = ['1', '10', '50', revenue(routed(B)), '1000000'];
    const expected = levels.map((level) => ({ level, time: reach(level) }));
    expect(expected.filter((e) => e.time !== null)).toHaveLength(4);
    expect(await queries.revenueReached(dataSource, BUILDERS[0]!, levels)).toEqual(expected);
  });

  it('counts exchange volume once per trade, with or without a builder', async () => {
    const { from } = WINDOWS['24h'];
    const expected = total(
      TRADES.filter((t) => t.time >= from && t.time < TO),
      notional,
    );
    expect(await queries.volume(dataSource, from, TO)).toBe(expected);
  });
});
