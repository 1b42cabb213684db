import { Injectable } from '@nestjs/common';
import { epochMs, isoTime, type SqlRunner, ReadsTables } from '#database';
import { builderWindow, DAY_MS, HOUR_MS, PERCENTILE_GROUPS, type BuilderTimeframe } from './builder-timeframes.js';
import type {
  BuilderActivityPoint,
  BuilderBiggestDay,
  BuilderCoinVolume,
  BuilderRow,
  BuilderTotals,
  BuilderUserVolumeGroup,
} from './builders.types.js';

const dec = (expression: string): string => `trim_scale(coalesce(${expression}, 0))::text`;
const lowerBound = (from: number | null): string => (from === null ? '-infinity' : isoTime(from));

/** A builder's fee rate: all-time builder fees over routed notional, 8 places; null without notional. */
const USAGE_FEE = `trim_scale(round(t.revenue / nullif(t.volume, 0), 8))::text`;

const BUCKETS = {
  hour: { unit: 'hour', interval: '1 hour', size: HOUR_MS },
  day: { unit: 'day', interval: '24 hours', size: DAY_MS },
} as const;

/**
 * What the builder routes read: the aggregates the fill projector keeps (builder_activity_hourly,
 * builder_totals, exchange_volume_hourly) and the exchange "now" they are current to.
 */
@Injectable()
@ReadsTables('builder_totals', 'builder_activity_hourly', 'exchange_volume_hourly', 'projection_checkpoints', 'fills')
export class BuildersQueries {
  /** The newest fill any projection has taken in, epoch ms (the exchange "now" of the aggregates); null before any. */
  async newestFillTime(q: SqlRunner): Promise<number | null> {
    const rows: Array<{ t: string | null }> = await q.query(
      `SELECT max((position->>'lastFillTime')::bigint) AS t FROM projection_checkpoints`,
    );
    return rows[0]!.t === null ? null : Number(rows[0]!.t);
  }

  /** Every builder active in the timeframe or the previous period, by revenue, highest first. */
  async rows(q: SqlRunner, timeframe: BuilderTimeframe, now: number): Promise<BuilderRow[]> {
    const { from, to, prevFrom } = builderWindow(timeframe, now);
    // For `all` both bounds are -infinity, so the previous period is empty.
    const current = 'hour >= $2::timestamptz';
    const previous = 'hour < $2::timestamptz';
    const rows: Array<{
      builder: string;
      revenue: string;
      volume: string;
      users: number;
      revenue_prev: string;
      volume_prev: string;
      users_prev: number;
      first_fill_time: string;
      usage_fee: string | null;
    }> = await q.query(
      `SELECT a.*, ${epochMs('t.first_fill_time')} AS first_fill_time, ${USAGE_FEE} AS usage_fee
       FROM (
         SELECT builder,
                sum(revenue) FILTER (WHERE ${current}) AS revenue_sum,
                ${dec(`sum(revenue) FILTER (WHERE ${current})`)} AS revenue,
                ${dec(`sum(volume) FILTER (WHERE ${current})`)} AS volume,
                (count(DISTINCT address) FILTER (WHERE ${current}))::int AS users,
                ${dec(`sum(revenue) FILTER (WHERE ${previous})`)} AS revenue_prev,
                ${dec(`sum(volume) FILTER (WHERE ${previous})`)} AS volume_prev,
                (count(DISTINCT address) FILTER (WHERE ${previous}))::int AS users_prev
         FROM builder_activity_hourly
         WHERE hour >= $1::timestamptz AND hour < $3::timestamptz
         GROUP BY builder
       ) a JOIN builder_totals t USING (builder)
       ORDER BY coalesce(a.revenue_sum, 0) DESC, a.builder`,
      [lowerBound(prevFrom), lowerBound(from), isoTime(to)],
    );
    return rows.map((r) => ({
      builder: r.builder,
      revenue: r.revenue,
      volume: r.volume,
      users: r.users,
      revenuePrev: from === null ? null : r.revenue_prev,
      volumePrev: from === null ? null : r.volume_prev,
      usersPrev: from === null ? null : r.users_prev,
      firstFillTime: Number(r.first_fill_time),
      usageFee: r.usage_fee,
    }));
  }

  async totals(q: SqlRunner, builder: string): Promise<BuilderTotals | null> {
    const rows: Array<{
      builder: string;
      first_fill_time: string;
      last_fill_time: string;
      revenue: string;
      volume: string;
      fills: string;
      usage_fee: string | null;
    }> = await q.query(
      `SELECT builder, ${epochMs('first_fill_time')} AS first_fill_time, ${epochMs('last_fill_time')} AS last_fill_time,
                ${dec('revenue')} AS revenue, ${dec('volume')} AS volume, fills, ${USAGE_FEE} AS usage_fee
         FROM builder_totals t WHERE builder = $1`,
      [builder.toLowerCase()],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      builder: r.builder,
      firstFillTime: Number(r.first_fill_time),
      lastFillTime: Number(r.last_fill_time),
      revenue: r.revenue,
      volume: r.volume,
      fills: Number(r.fills),
      usageFee: r.usage_fee,
    };
  }

  /**
   * Revenue, volume and distinct wallets per hour or UTC day over [from, to) (widened to whole buckets),
   * one point per bucket, oldest first.
   */
  async series(q: SqlRunner, builder: string, bucket: 'hour' | 'day', from: number, to: number): Promise<BuilderActivityPoint[]> {
    const { unit, interval, size } = BUCKETS[bucket];
    const start = Math.floor(from / size) * size;
    const end = Math.ceil(to / size) * size;
    if (end <= start) return [];
    const rows: Array<{ time: string; revenue: string; volume: string; users: number }> = await q.query(
      `WITH buckets AS (
         SELECT generate_series($2::timestamptz, $3::timestamptz - $4::interval, $4::interval) AS t
       ), activity AS (
         SELECT date_trunc($5, hour, 'UTC') AS t, sum(revenue) AS revenue, sum(volume) AS volume, count(DISTINCT address)::int AS users
         FROM builder_activity_hourly
         WHERE builder = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz
         GROUP BY 1
       )
       SELECT ${epochMs('b.t')} AS time, ${dec('a.revenue')} AS revenue, ${dec('a.volume')} AS volume, coalesce(a.users, 0) AS users
       FROM buckets b LEFT JOIN activity a ON a.t = b.t
       ORDER BY b.t`,
      [builder.toLowerCase(), isoTime(start), isoTime(end), interval, unit],
    );
    return rows.map((r) => ({ time: Number(r.time), revenue: r.revenue, volume: r.volume, users: r.users }));
  }

  /** Volume and distinct wallets per coin over the timeframe, highest volume first. */
  async coinVolumes(q: SqlRunner, builder: string, timeframe: BuilderTimeframe, now: number): Promise<BuilderCoinVolume[]> {
    const { from, to } = builderWindow(timeframe, now);
    const rows: Array<{ coin: string; volume: string; wallets: number }> = await q.query(
      `SELECT coin, ${dec('sum(volume)')} AS volume, count(DISTINCT address)::int AS wallets
       FROM builder_activity_hourly
       WHERE builder = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz
       GROUP BY coin
       ORDER BY sum(volume) DESC, coin`,
      [builder.toLowerCase(), lowerBound(from), isoTime(to)],
    );
    return rows;
  }

  /** The wallets' volumes over the timeframe in percentile groups (see BuilderUserVolumeGroup), top first. */
  async userVolumeGroups(q: SqlRunner, builder: string, timeframe: BuilderTimeframe, now: number): Promise<BuilderUserVolumeGroup[]> {
    const { from, to } = builderWindow(timeframe, now);
    const rows: Array<{ g: number; wallets: number; volume: string; min_volume: string }> = await q.query(
      `WITH per_wallet AS (
         SELECT address, sum(volume) AS v
         FROM builder_activity_hourly
         WHERE builder = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz
         GROUP BY address
       ), ranked AS (
         SELECT v, row_number() OVER (ORDER BY v DESC, address) AS r, count(*) OVER () AS n FROM per_wallet
       ), grouped AS (
         SELECT v, CASE WHEN r <= ceil(n * 0.01) THEN 0 WHEN r <= ceil(n * 0.05) THEN 1 WHEN r <= ceil(n * 0.10) THEN 2
                        WHEN r <= ceil(n * 0.25) THEN 3 WHEN r <= ceil(n * 0.50) THEN 4 ELSE 5 END AS g
         FROM ranked
       )
       SELECT g, count(*)::int AS wallets, ${dec('sum(v)')} AS volume, ${dec('min(v)')} AS min_volume
       FROM grouped GROUP BY g ORDER BY g`,
      [builder.toLowerCase(), lowerBound(from), isoTime(to)],
    );
    return rows.map((r, i) => ({
      group: PERCENTILE_GROUPS[r.g]!,
      wallets: r.wallets,
      volume: r.volume,
      minVolume: r.min_volume,
      maxVolume: i === 0 ? null : rows[i - 1]!.min_volume,
    }));
  }

  /** The UTC day with the most revenue (the earliest of equals); null for a builder never seen. */
  async biggestDay(q: SqlRunner, builder: string): Promise<BuilderBiggestDay | null> {
    const rows: Array<{ date: string; revenue: string }> = await q.query(
      `SELECT ${epochMs('d')} AS date, ${dec('revenue')} AS revenue
       FROM (
         SELECT date_trunc('day', hour, 'UTC') AS d, sum(revenue) AS revenue
         FROM builder_activity_hourly WHERE builder = $1 GROUP BY 1
       ) days
       ORDER BY days.revenue DESC, d LIMIT 1`,
      [builder.toLowerCase()],
    );
    const r = rows[0];
    return r ? { date: Number(r.date), revenue: r.revenue } : null;
  }

  /** Notional traded on the whole exchange in the whole hours [from, to), epoch ms. */
  async volume(q: SqlRunner, from: number, to: number): Promise<string> {
    const rows: Array<{ volume: string }> = await q.query(
      `SELECT ${dec('sum(volume)')} AS volume FROM exchange_volume_hourly WHERE hour >= $1::timestamptz AND hour < $2::timestamptz`,
      [isoTime(from), isoTime(to)],
    );
    return rows[0]!.volume;
  }

  /**
   * For each revenue level (exact decimal text), the time of the fill that took the builder's cumulative
   * revenue to it or past it, epoch ms; null for a level not reached. The hourly rows find the hour, then
   * that hour's fills (only the coins the builder had in it, so the (coin, time) index serves) give the
   * exact fill, in (time, tid, address) order, with the revenue of the hours before it.
   */
  async revenueReached(q: SqlRunner, builder: string, levels: readonly string[]): Promise<Array<{ level: string; time: number | null }>> {
    const rows: Array<{ level: string; time: string | null }> = await q.query(
      `WITH hours AS (
         SELECT hour, sum(revenue) AS revenue, array_agg(DISTINCT coin) AS coins
         FROM builder_activity_hourly WHERE builder = $1 GROUP BY hour
       ), running AS (
         SELECT hour, coins, sum(revenue) OVER (ORDER BY hour) - revenue AS before, sum(revenue) OVER (ORDER BY hour) AS after FROM hours
       ), levels AS (
         SELECT level, ord FROM unnest($2::numeric[]) WITH ORDINALITY AS l(level, ord)
       ), reached AS (
         SELECT l.level, l.ord, r.hour, r.coins, r.before
         FROM levels l
         LEFT JOIN LATERAL (SELECT * FROM running WHERE running.after >= l.level ORDER BY hour LIMIT 1) r ON TRUE
       )
       SELECT trim_scale(x.level)::text AS level, ${epochMs('f.time')} AS time
       FROM reached x
       LEFT JOIN LATERAL (
         SELECT time FROM (
           SELECT time, tid, address, x.before + sum(coalesce(builder_fee, 0)) OVER (ORDER BY time, tid, address) AS total
           FROM fills
           WHERE coin = ANY(x.coins) AND time >= x.hour AND time < x.hour + interval '1 hour' AND lower(builder) = $1
         ) hour_fills
         WHERE total >= x.level ORDER BY time, tid, address LIMIT 1
       ) f ON TRUE
       ORDER BY x.ord`,
      [builder.toLowerCase(), levels],
    );
    return rows.map((r) => ({ level: r.level, time: r.time === null ? null : Number(r.time) }));
  }
}
