import { type SqlRunner } from '#database';
import { COHORT_IDS } from '../cohorts/cohorts.js';
import { cohortCaseSql } from './cohort-sql.js';

/** A position this far from entry to its liquidation price counts as near liquidation (the API contract's 75 %). */
export const NEAR_LIQUIDATION_PROGRESS = '0.75';

/**
 * The rows written once per state update, all stamped with the state's exchange time. They read the
 * wallets and positions tables after the update was applied, so every open position counts, also
 * those of a wallet the update could not read.
 */
export class StateSnapshotsRepository {
  /**
   * The snapshots of the open positions: cohorts, cohort summaries, position sizes, market. Returns the
   * number of cohort rows. The open positions are spread over the pages of every position ever held, and
   * reading them is most of each snapshot's cost while they are few: up to ONE_READ_MAX_POSITIONS (the
   * update's `positions`) one statement reads them once for all four. More would not fit in the
   * statement's memory and be written to disk and sorted there: then each snapshot reads them itself.
   */
  async openPositions(q: SqlRunner, stateTime: string, positions: number): Promise<number> {
    if (positions <= ONE_READ_MAX_POSITIONS) {
      const rows: Array<{ n: number }> = await q.query(
        `WITH open AS MATERIALIZED (${OPEN_POSITIONS}), ${SNAPSHOTS.map((s) => s.sql).join(', ')}
         SELECT count(*)::int AS n FROM cohort_rows`,
        [stateTime, COHORT_IDS],
      );
      return rows[0]!.n;
    }
    let cohortRows = 0;
    for (const snapshot of SNAPSHOTS) {
      const rows: Array<{ n: number }> = await q.query(
        `WITH open AS (${OPEN_POSITIONS}), ${snapshot.sql} SELECT count(*)::int AS n FROM ${snapshot.rows}`,
        snapshot.sql.includes('$2') ? [stateTime, COHORT_IDS] : [stateTime],
      );
      if (snapshot.rows === 'cohort_rows') cohortRows = rows[0]!.n;
    }
    return cohortRows;
  }

  /** Sums over every known wallet; vaults are not modelled, so their equity is null. */
  async walletsEquity(q: SqlRunner, stateTime: string): Promise<void> {
    await q.query(
      `INSERT INTO wallets_equity_history (created_at, total_wallets_equity, perp_wallets_equity, spot_wallets_equity, staking_wallets_equity, vault_wallets_equity)
       SELECT $1::timestamptz, coalesce(sum(total_equity), 0), coalesce(sum(perp_equity), 0), coalesce(sum(spot_equity), 0), coalesce(sum(staked_equity), 0), NULL
       FROM wallets`,
      [stateTime],
    );
  }

  /**
   * HYPE balances that changed since the wallet's previous update (compared with the wallets table
   * before it is updated, so this runs first). A wallet first seen with no HYPE writes nothing.
   */
  async holderChanges(q: SqlRunner, stateTime: string): Promise<number> {
    const rows: Array<{ n: number }> = await q.query(
      `WITH inserted AS (
         INSERT INTO holder_history (address, created_at, spot_amount, staked_amount)
         SELECT s.address, $1::timestamptz, s.spot_hype, s.staked_hype
         FROM stage_wallets s LEFT JOIN wallets w ON w.address = s.address
         WHERE CASE WHEN w.address IS NULL THEN s.spot_hype <> 0 OR s.staked_hype <> 0
                    ELSE w.spot_hype <> s.spot_hype OR w.staked_hype <> s.staked_hype END
         RETURNING 1)
       SELECT count(*)::int AS n FROM inserted`,
      [stateTime],
    );
    return rows[0]!.n;
  }

  /**
   * All-time PnL as change points (wallet_pnl_history): a row when a wallet's PnL differs from the one
   * the wallets table holds before it is updated (so this runs first), and a first row for a new wallet,
   * so "the PnL at time T" is the newest row at or before T.
   */
  async pnlChanges(q: SqlRunner, stateTime: string): Promise<number> {
    const rows: Array<{ n: number }> = await q.query(
      `WITH inserted AS (
         INSERT INTO wallet_pnl_history (address, created_at, perp_pnl)
         SELECT v.address, $1::timestamptz, v.perp_pnl
         FROM stage_wallet_values v LEFT JOIN wallets w ON w.address = v.address
         WHERE w.address IS NULL OR w.perp_pnl <> v.perp_pnl
         RETURNING 1)
       SELECT count(*)::int AS n FROM inserted`,
      [stateTime],
    );
    return rows[0]!.n;
  }

  /**
   * Each wallet's PnL over the last 24 hours, 7 and 30 days before this update, as the PnL leaderboard
   * defines them (all-time PnL now minus the PnL of the newest history row at or before then; a wallet
   * first seen since then counts from its first row), replacing the previous update's. Run after
   * `pnlChanges` and the wallets upsert: the leaderboard read them per request before, three history
   * lookups for every wallet (seconds at 200,000 wallets).
   * Each figure is one probe of the history's (address, created_at) key per wallet: the history grows by
   * up to a row per wallet at every update, and sorting all of it four times made this the costliest
   * statement of a long backfill (355 ms at 300 wallets after 7 days of updates, 5 ms this way).
   * Only the rows whose figures changed are written (compared as text, so that a figure keeps the scale
   * a rewrite would give it); wallets are never deleted, so no row goes.
   */
  async pnlPeriods(q: SqlRunner, stateTime: string): Promise<void> {
    const at = (hours: number) =>
      `(SELECT h.perp_pnl FROM wallet_pnl_history h WHERE h.address = w.address AND h.created_at <= $1::timestamptz - interval '${hours} hours' ORDER BY h.created_at DESC LIMIT 1)`;
    await q.query(
      `INSERT INTO wallet_pnl_periods AS kept (address, pnl_day, pnl_week, pnl_month)
       SELECT w.address, w.perp_pnl - coalesce(d.perp_pnl, f.perp_pnl, w.perp_pnl), w.perp_pnl - coalesce(wk.perp_pnl, f.perp_pnl, w.perp_pnl),
              w.perp_pnl - coalesce(m.perp_pnl, f.perp_pnl, w.perp_pnl)
       FROM wallets w
       LEFT JOIN LATERAL ${at(24)} d ON true
       LEFT JOIN LATERAL ${at(7 * 24)} wk ON true
       LEFT JOIN LATERAL ${at(30 * 24)} m ON true
       LEFT JOIN LATERAL (SELECT h.perp_pnl FROM wallet_pnl_history h WHERE h.address = w.address ORDER BY h.created_at LIMIT 1) f ON true
       ON CONFLICT (address) DO UPDATE SET pnl_day = EXCLUDED.pnl_day, pnl_week = EXCLUDED.pnl_week, pnl_month = EXCLUDED.pnl_month
       WHERE (kept.pnl_day::text, kept.pnl_week::text, kept.pnl_month::text) IS DISTINCT FROM (EXCLUDED.pnl_day::text, EXCLUDED.pnl_week::text, EXCLUDED.pnl_month::text)`,
      [stateTime],
    );
  }
}

/**
 * Each open position counts in its wallet's size cohort and in its pnl cohort, and in every timeframe it
 * opened within. One pass sums the positions per coin, cohort pair, side and age bucket (under 24h, 7d,
 * 30d, older); the few thousand sums are then added up per timeframe, which is far cheaper than
 * expanding every position eight times. `value_near_liquidation` is what the liquidation-risk route
 * reads (the value at or past NEAR_LIQUIDATION_PROGRESS).
 */
const COHORT_POSITIONS = `cohort_buckets AS (
         SELECT coin, size_cohort_id, pnl_cohort_id, side = 'long' AS long,
                CASE WHEN open_time >= $1::timestamptz - interval '24 hours' THEN 0
                     WHEN open_time >= $1::timestamptz - interval '7 days' THEN 1
                     WHEN open_time >= $1::timestamptz - interval '30 days' THEN 2
                     ELSE 3 END AS age,
                count(*)::int AS n, sum(value) AS value, sum(funding) AS funding, sum(unrealized_pnl) AS upnl, sum(size) AS size,
                coalesce(sum(value) FILTER (WHERE liquidation_progress >= ${NEAR_LIQUIDATION_PROGRESS}), 0) AS near
         FROM open
         WHERE has_wallet
         GROUP BY 1, 2, 3, 4, 5
       ), cohort_rows AS (
         INSERT INTO cohort_position_snapshots (created_at, timeframe, coin, cohort_id, position_count, position_count_long,
           total_position_value, total_position_value_long, total_funding, total_unrealized_pnl, total_position_size, total_position_size_long, value_near_liquidation)
         SELECT $1::timestamptz, tf.name, b.coin, cohort.id,
                sum(b.n), coalesce(sum(b.n) FILTER (WHERE b.long), 0),
                sum(b.value), coalesce(sum(b.value) FILTER (WHERE b.long), 0),
                sum(b.funding), sum(b.upnl),
                sum(b.size), coalesce(sum(b.size) FILTER (WHERE b.long), 0),
                sum(b.near)
         FROM cohort_buckets b
         CROSS JOIN LATERAL (VALUES (b.size_cohort_id), (b.pnl_cohort_id)) AS cohort(id)
         CROSS JOIN (VALUES ('24h', 0), ('7d', 1), ('30d', 2), ('all', 3)) AS tf(name, max_age)
         WHERE b.age <= tf.max_age
         GROUP BY tf.name, b.coin, cohort.id
         RETURNING 1)`;

/**
 * What the cohort-summary route reads, per cohort and position age: the cohort's traders (wallets with
 * open positions, each in its size cohort and its pnl cohort) and their open positions' sums. A trader is
 * in an age when its newest open position opened within it before the state time (`all`: every trader),
 * and then all its open positions count. Every cohort and age gets a row, zeros included. One pass sums
 * the positions per wallet, then the wallets per cohort and age bucket.
 */
const COHORT_SUMMARIES = `traders AS (
         SELECT size_cohort_id, pnl_cohort_id, perp_equity,
                count(*) AS positions, count(*) FILTER (WHERE side = 'long') AS long_positions, count(*) FILTER (WHERE side = 'short') AS short_positions,
                sum(value) AS value, coalesce(sum(value) FILTER (WHERE side = 'long'), 0) AS long_value,
                coalesce(sum(value) FILTER (WHERE side = 'short'), 0) AS short_value, sum(unrealized_pnl) > 0 AS in_profit,
                CASE WHEN max(open_time) >= $1::timestamptz - interval '24 hours' THEN 0 WHEN max(open_time) >= $1::timestamptz - interval '7 days' THEN 1
                     WHEN max(open_time) >= $1::timestamptz - interval '30 days' THEN 2 ELSE 3 END AS age
         FROM open
         WHERE has_wallet
         -- One group per wallet: its other columns follow from its address.
         GROUP BY address, size_cohort_id, pnl_cohort_id, perp_equity
       ), summary_buckets AS (
         SELECT cohort.id AS cohort_id, t.age, count(*) AS traders, count(*) FILTER (WHERE t.in_profit) AS traders_in_profit,
                sum(t.positions) AS positions, sum(t.long_positions) AS long_positions, sum(t.short_positions) AS short_positions,
                sum(t.value) AS value, sum(t.long_value) AS long_value, sum(t.short_value) AS short_value, sum(t.perp_equity) AS equity
         FROM traders t CROSS JOIN LATERAL (VALUES (t.size_cohort_id), (t.pnl_cohort_id)) AS cohort(id)
         GROUP BY 1, 2
       ), summary_rows AS (
         INSERT INTO cohort_summary_snapshots (created_at, cohort_id, position_age, traders, traders_in_profit, positions, long_positions, short_positions,
           value, long_value, short_value, active_perp_equity)
         SELECT $1::timestamptz, c.id, tf.name, coalesce(sum(b.traders), 0), coalesce(sum(b.traders_in_profit), 0), coalesce(sum(b.positions), 0),
                coalesce(sum(b.long_positions), 0), coalesce(sum(b.short_positions), 0), coalesce(sum(b.value), 0), coalesce(sum(b.long_value), 0),
                coalesce(sum(b.short_value), 0), coalesce(sum(b.equity), 0)
         FROM unnest($2::smallint[]) AS c(id)
         CROSS JOIN (VALUES ('24h', 0), ('7d', 1), ('30d', 2), ('all', 3)) AS tf(name, max_age)
         LEFT JOIN summary_buckets b ON b.cohort_id = c.id AND b.age <= tf.max_age
         GROUP BY c.id, tf.name
         RETURNING 1)`;

/**
 * Per coin, open positions by size (USD value) in the size cohorts' ranges: count, value, long value,
 * and the value at or past 75 % of the way to liquidation. A range without positions has no row.
 */
const POSITION_SIZES = `size_rows AS (
         INSERT INTO position_size_snapshots (created_at, coin, size_cohort_id, position_count, total_position_value, total_position_value_long, value_near_liquidation)
         SELECT $1::timestamptz, coin, ${cohortCaseSql('size', 'value')}, count(*), sum(value), coalesce(sum(value) FILTER (WHERE side = 'long'), 0),
                coalesce(sum(value) FILTER (WHERE liquidation_progress >= ${NEAR_LIQUIDATION_PROGRESS}), 0)
         FROM open
         GROUP BY 1, 2, 3
         RETURNING 1)`;

/** Market-wide: open positions, open interest by side, perp equity of all wallets, positions in profit. */
const MARKET = `market_row AS (
         INSERT INTO market_snapshots (created_at, count, count_long, count_short, open_interest, open_interest_long, open_interest_short, perp_equity, count_in_profit)
         SELECT $1::timestamptz, count(*), count(*) FILTER (WHERE side = 'long'), count(*) FILTER (WHERE side = 'short'),
                coalesce(sum(value), 0), coalesce(sum(value) FILTER (WHERE side = 'long'), 0), coalesce(sum(value) FILTER (WHERE side = 'short'), 0),
                (SELECT coalesce(sum(perp_equity), 0) FROM wallets),
                count(*) FILTER (WHERE unrealized_pnl > 0)
         FROM open
         RETURNING 1)`;

/** Up to this many open positions, StateSnapshotsRepository.openPositions reads them once for all its snapshots. */
export const ONE_READ_MAX_POSITIONS = 20_000;

/** The open positions with their wallet's cohorts (every position has a wallet row; the cohorts read only those that do). */
const OPEN_POSITIONS = `
         SELECT p.address, p.coin, p.side, p.value, p.funding, p.unrealized_pnl, p.size, p.liquidation_progress, p.open_time,
                w.address IS NOT NULL AS has_wallet, w.size_cohort_id, w.pnl_cohort_id, w.perp_equity
         FROM positions p LEFT JOIN wallets w ON w.address = p.address
         WHERE p.close_time IS NULL`;

/** Each snapshot as WITH entries reading `open`, the last (`rows`) the insert. */
const SNAPSHOTS: ReadonlyArray<{ sql: string; rows: string }> = [
  { sql: COHORT_POSITIONS, rows: 'cohort_rows' },
  { sql: COHORT_SUMMARIES, rows: 'summary_rows' },
  { sql: POSITION_SIZES, rows: 'size_rows' },
  { sql: MARKET, rows: 'market_row' },
];
