import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import QueryStream from 'pg-query-stream';
import { driverConnection, jsonIsoTime, type SqlRunner, ReadsTables } from '#database';

export interface LatestUpdate {
  height: number;
  stateTime: string;
}

export interface HeatmapBinRow {
  bin: number;
  liquidation_value: string;
  positions_count: number;
  most_impacted_cohort: number;
}

export interface EquityRow {
  created_at: Date;
  total_wallets_equity: string;
  perp_wallets_equity: string;
  spot_wallets_equity: string;
  staking_wallets_equity: string;
  vault_wallets_equity: string | null;
}

export interface SizeBucketRow {
  size_cohort_id: number;
  position_count: number;
  total_position_value: string;
  total_position_value_long: string;
  value_near_liquidation: string;
}

const EQUITY_COLUMNS =
  'created_at, total_wallets_equity, perp_wallets_equity, spot_wallets_equity, staking_wallets_equity, vault_wallets_equity';

/** What the export files are built from; run in one repeatable-read transaction, so a file is one state update's. */
@Injectable()
@ReadsTables('state_updates', 'positions', 'wallets', 'wallets_equity_history', 'position_size_snapshots')
export class ExportsQueries {
  async latestUpdate(q: SqlRunner): Promise<LatestUpdate | null> {
    const rows: Array<{ height: string; state_time: Date }> = await q.query(
      `SELECT height, state_time FROM state_updates ORDER BY height DESC LIMIT 1`,
    );
    return rows.length ? { height: Number(rows[0]!.height), stateTime: rows[0]!.state_time.toISOString() } : null;
  }

  /** The highest liquidation price of the coin's open positions (exact), or null when none has one. */
  async highestLiquidationPrice(q: SqlRunner, coin: string): Promise<string | null> {
    const rows: Array<{ max: string | null }> = await q.query(
      `SELECT max(liquidation_price)::text AS max FROM positions WHERE close_time IS NULL AND coin = $1 AND liquidation_price > 0`,
      [coin],
    );
    return rows[0]?.max ?? null;
  }

  /**
   * The coin's open positions with a liquidation price, grouped into bins of `width` from 0: value and
   * count per bin, and the cohort (size or pnl) whose positions hold the most value in it (lowest id on a tie).
   */
  async liquidationBins(q: SqlRunner, coin: string, width: string): Promise<HeatmapBinRow[]> {
    return q.query(
      `WITH p AS (
         SELECT floor(p.liquidation_price / $2::numeric)::int AS bin, p.value, w.size_cohort_id, w.pnl_cohort_id
         FROM positions p JOIN wallets w ON w.address = p.address
         WHERE p.close_time IS NULL AND p.coin = $1 AND p.liquidation_price > 0
       ), bins AS (
         SELECT bin, sum(value) AS liquidation_value, count(*)::int AS positions_count FROM p GROUP BY bin
       ), cohorts AS (
         SELECT DISTINCT ON (bin) bin, cohort AS most_impacted_cohort
         FROM (SELECT bin, cohort, sum(value) AS value FROM p CROSS JOIN LATERAL (VALUES (size_cohort_id), (pnl_cohort_id)) s(cohort) GROUP BY bin, cohort) v
         ORDER BY bin, value DESC, cohort
       )
       SELECT b.bin, b.liquidation_value::text AS liquidation_value, b.positions_count, c.most_impacted_cohort::int AS most_impacted_cohort
       FROM bins b JOIN cohorts c USING (bin)
       ORDER BY b.bin`,
      [coin, width],
    );
  }

  /** The update's row, the all-time high of total equity (earliest on a tie) and the newest row at or before `dayBefore`. */
  async equityRows(q: SqlRunner, dayBefore: string): Promise<{ ath: EquityRow | null; dayAgo: EquityRow | null; history: EquityRow[] }> {
    const [ath]: EquityRow[] = await q.query(
      `SELECT ${EQUITY_COLUMNS} FROM wallets_equity_history ORDER BY total_wallets_equity DESC, created_at LIMIT 1`,
    );
    const [dayAgo]: EquityRow[] = await q.query(
      `SELECT ${EQUITY_COLUMNS} FROM wallets_equity_history WHERE created_at <= $1 ORDER BY created_at DESC LIMIT 1`,
      [dayBefore],
    );
    const history: EquityRow[] = await q.query(`SELECT ${EQUITY_COLUMNS} FROM wallets_equity_history ORDER BY created_at DESC`);
    return { ath: ath ?? null, dayAgo: dayAgo ?? null, history };
  }

  /** The newest update at or before `at`, or the oldest one when none is that old. */
  async updateTimeAtOrBefore(q: SqlRunner, at: string): Promise<string> {
    const rows: Array<{ state_time: Date }> = await q.query(
      `SELECT coalesce((SELECT max(state_time) FROM state_updates WHERE state_time <= $1), (SELECT min(state_time) FROM state_updates)) AS state_time`,
      [at],
    );
    return rows[0]!.state_time.toISOString();
  }

  /** The coin's open positions by size range at one update (position_size_snapshots; a range without positions has no row). */
  async sizeBuckets(q: SqlRunner, coin: string, createdAt: string): Promise<SizeBucketRow[]> {
    return q.query(
      `SELECT size_cohort_id::int AS size_cohort_id, position_count, total_position_value::text AS total_position_value,
              total_position_value_long::text AS total_position_value_long, value_near_liquidation::text AS value_near_liquidation
       FROM position_size_snapshots WHERE coin = $1 AND created_at = $2`,
      [coin, createdAt],
    );
  }

  /** Every open position of the coin with its wallet, streamed in batches so the file is never held in memory. */
  /**
   * The coin's open positions as CSV records, streamed in batches: one array per position, every field as
   * the text the file holds, in the order of OPEN_POSITION_CSV_COLUMNS (empty for none; the leverage under
   * its margin mode's column). Postgres writes the text, so node neither parses a value nor builds an object
   * per row: at 110,000 rows that work was most of the export's time.
   */
  async openPositionsStream(q: SqlRunner, coin: string): Promise<Readable> {
    const client = await driverConnection(q);
    return client.query(
      new QueryStream(
        `SELECT p.id::text, p.address, p.coin, p.side, p.dex, p.size::text, p.value::text, p.entry_price::text,
                p.unrealized_pnl::text, p.funding::text, coalesce(p.liquidation_price::text, ''),
                coalesce(p.liquidation_progress::text, ''), CASE WHEN p.leverage_type = 'cross' THEN p.leverage::text ELSE '' END,
                CASE WHEN p.leverage_type = 'isolated' THEN p.leverage::text ELSE '' END, ${jsonIsoTime('p.open_time')},
                w.total_equity::text, w.perp_equity::text, w.count_open_positions::text,
                w.perp_pnl::text, (w.perp_equity - w.sum_upnl)::text, w.pnl_cohort_id::text, w.size_cohort_id::text
         FROM positions p JOIN wallets w ON w.address = p.address
         WHERE p.close_time IS NULL AND p.coin = $1
         ORDER BY p.id`,
        [coin],
        { batchSize: 5_000, rowMode: 'array' },
      ),
    );
  }
}
