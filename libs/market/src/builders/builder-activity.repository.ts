import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '../facts/exchange-facts.types.js';
import { isoTime } from '../facts/fact-rows.js';
import type {
  BuilderActivityPoint,
  BuilderBiggestDay,
  BuilderCoinVolume,
  BuilderRow,
  BuilderTotals,
  BuilderUserVolumeGroup,
} from './builder-activity.types.js';
import { builderWindow, DAY_MS, HOUR_MS, PERCENTILE_GROUPS, type BuilderTimeframe } from './builder-timeframes.js';

// Fills of a projection window (block_number in ($1, $2]) routed through a builder. Grouping makes each
// key appear once per statement, as ON CONFLICT DO UPDATE requires; the projector's checkpoint, moved in
// the same transaction, is what keeps a window from being added twice.
const ADD_HOURLY = `
  INSERT INTO builder_activity_hourly AS t (builder, hour, address, coin, volume, revenue, fills)
  SELECT lower(builder), date_trunc('hour', time, 'UTC'), lower(address), coin, sum(px * sz), sum(coalesce(builder_fee, 0)), count(*)
  FROM fills
  WHERE block_number > $1 AND block_number <= $2 AND builder IS NOT NULL
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (builder, hour, address, coin) DO UPDATE
  SET volume = t.volume + EXCLUDED.volume, revenue = t.revenue + EXCLUDED.revenue, fills = t.fills + EXCLUDED.fills`;

const ADD_TOTALS = `
  INSERT INTO builder_totals AS t (builder, first_fill_time, last_fill_time, volume, revenue, fills)
  SELECT lower(builder), min(time), max(time), sum(px * sz), sum(coalesce(builder_fee, 0)), count(*)
  FROM fills
  WHERE block_number > $1 AND block_number <= $2 AND builder IS NOT NULL
  GROUP BY 1
  ON CONFLICT (builder) DO UPDATE
  SET first_fill_time = least(t.first_fill_time, EXCLUDED.first_fill_time),
      last_fill_time = greatest(t.last_fill_time, EXCLUDED.last_fill_time),
      volume = t.volume + EXCLUDED.volume, revenue = t.revenue + EXCLUDED.revenue, fills = t.fills + EXCLUDED.fills`;

const ms = (expression: string): string => `(extract(epoch FROM ${expression}) * 1000)::bigint`;
const dec = (expression: string): string => `trim_scale(coalesce(${expression}, 0))::text`;
const lowerBound = (from: number | null): string => (from === null ? '-infinity' : isoTime(from));

const BUCKETS = {
  hour: { unit: 'hour', interval: '1 hour', size: HOUR_MS },
  day: { unit: 'day', interval: '24 hours', size: DAY_MS },
} as const;

@Injectable()
export class BuilderActivityRepository {
  /** Adds the builder fills of blocks (afterBlock, toBlock] to the hourly rows and the totals. */
  async addFills(q: SqlRunner, afterBlock: number, toBlock: number): Promise<void> {
    await q.query(ADD_HOURLY, [afterBlock, toBlock]);
    await q.query(ADD_TOTALS, [afterBlock, toBlock]);
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
    }> = await q.query(
      `SELECT a.*, ${ms('t.first_fill_time')} AS first_fill_time
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
    }));
  }

  async totals(q: SqlRunner, builder: string): Promise<BuilderTotals | null> {
    const rows: Array<{ builder: string; first_fill_time: string; last_fill_time: string; revenue: string; volume: string; fills: string }> =
      await q.query(
        `SELECT builder, ${ms('first_fill_time')} AS first_fill_time, ${ms('last_fill_time')} AS last_fill_time,
                ${dec('revenue')} AS revenue, ${dec('volume')} AS volume, fills
         FROM builder_totals WHERE builder = $1`,
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
       SELECT ${ms('b.t')} AS time, ${dec('a.revenue')} AS revenue, ${dec('a.volume')} AS volume, coalesce(a.users, 0) AS users
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
      `SELECT ${ms('d')} AS date, ${dec('revenue')} AS revenue
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
}
