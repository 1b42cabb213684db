import { cohortCaseSql } from './cohort-sql.js';
import { analyzeIfChanged } from './state-staging.repository.js';
import { rankingOrder, WALLET_RANKING_CHUNK, WALLET_RANKINGS } from './wallet-rankings.js';
import { type SqlRunner } from '#database';

/**
 * What each wallet column is, from a row `v` of stage_wallet_values. Ratios are to perp equity and
 * null without positive equity or an open position; the bias is (long - short) / perp equity, so its
 * sign is the direction and, for a one-sided wallet, its size is the exposure ratio.
 */
const WALLET_VALUES: Array<[column: string, expression: string]> = [
  ['perp_equity', 'v.perp_equity'],
  ['spot_equity', 'v.spot_equity'],
  ['staked_equity', 'v.staked_equity'],
  ['total_equity', 'v.perp_equity + v.spot_equity + v.staked_equity'],
  ['perp_pnl', 'v.perp_pnl'],
  ['size_cohort_id', cohortCaseSql('size', 'v.perp_equity')],
  ['pnl_cohort_id', cohortCaseSql('pnl', 'v.perp_pnl')],
  ['open_value', 'v.open_value'],
  ['long_value', 'v.long_value'],
  ['short_value', 'v.short_value'],
  ['sum_upnl', 'v.sum_upnl'],
  ['exposure_ratio', 'CASE WHEN v.perp_equity > 0 AND v.count_open_positions > 0 THEN round(v.open_value / v.perp_equity, 8) END'],
  [
    'perp_bias',
    'CASE WHEN v.perp_equity > 0 AND v.count_open_positions > 0 THEN round((v.long_value - v.short_value) / v.perp_equity, 8) END',
  ],
  ['closest_liq_coin', 'v.closest_liq_coin'],
  ['closest_liq_progress', 'v.closest_liq_progress'],
  ['count_open_positions', 'v.count_open_positions'],
  ['spot_hype', 'v.spot_hype'],
  ['staked_hype', 'v.staked_hype'],
];

/** Wallet rows from a staged state update (StateStagingRepository). */
export class WalletStateRepository {
  async stageValues(q: SqlRunner, hypePx: string | null): Promise<void> {
    const rows: Array<{ n: number }> = await q.query(
      `WITH sums AS (
         SELECT address,
                sum(position_value) AS open_value,
                coalesce(sum(position_value) FILTER (WHERE szi > 0), 0) AS long_value,
                coalesce(sum(position_value) FILTER (WHERE szi < 0), 0) AS short_value,
                sum(unrealized_pnl) AS sum_upnl,
                count(*)::int AS positions
         FROM stage_positions GROUP BY address
       ), closest AS (
         SELECT DISTINCT ON (address) address, coin, liquidation_progress
         FROM stage_positions WHERE liquidation_progress IS NOT NULL
         ORDER BY address, liquidation_progress DESC, coin
       ), staged AS (
         INSERT INTO stage_wallet_values (address, perp_equity, perp_pnl, spot_hype, staked_hype, spot_equity, staked_equity, open_value, long_value,
           short_value, sum_upnl, count_open_positions, closest_liq_coin, closest_liq_progress, is_new)
         SELECT w.address,
                w.perp_equity,
                -- A source without all-time PnL (the info API) leaves the wallet's last known figure.
                coalesce(w.all_time_pnl, old.perp_pnl, 0) AS perp_pnl,
                w.spot_hype,
                w.staked_hype,
                w.spot_hype * coalesce($1::numeric, 0) AS spot_equity,
                w.staked_hype * coalesce($1::numeric, 0) AS staked_equity,
                coalesce(s.open_value, 0) AS open_value,
                coalesce(s.long_value, 0) AS long_value,
                coalesce(s.short_value, 0) AS short_value,
                coalesce(s.sum_upnl, 0) AS sum_upnl,
                coalesce(s.positions, 0) AS count_open_positions,
                c.coin AS closest_liq_coin,
                c.liquidation_progress AS closest_liq_progress,
                old.address IS NULL AS is_new
         FROM stage_wallets w
         LEFT JOIN sums s USING (address)
         LEFT JOIN closest c USING (address)
         LEFT JOIN wallets old USING (address)
         RETURNING 1)
       SELECT count(*)::int AS n FROM staged`,
      [hypePx],
    );
    await analyzeIfChanged(q, 'stage_wallet_values', rows[0]!.n);
  }

  /** New wallets (their earliest activity is their first stored fill, if older than this state), then the others. */
  async upsert(q: SqlRunner, stateTime: string): Promise<{ created: number; updated: number }> {
    const columns = WALLET_VALUES.map(([c]) => c).join(', ');
    const created: Array<{ n: number }> = await q.query(
      `WITH inserted AS (
         INSERT INTO wallets (address, earliest_activity_at, state_time, ${columns})
         SELECT v.address, least($1::timestamptz, (SELECT min(f.time) FROM fills f WHERE f.address = v.address)), $1::timestamptz,
                ${WALLET_VALUES.map(([, e]) => e).join(', ')}
         FROM stage_wallet_values v WHERE v.is_new
         RETURNING 1)
       SELECT count(*)::int AS n FROM inserted`,
      [stateTime],
    );
    const updated: Array<{ n: number }> = await q.query(
      `WITH updated AS (
         UPDATE wallets w SET state_time = $1::timestamptz, ${WALLET_VALUES.map(([c, e]) => `${c} = ${e}`).join(', ')}
         FROM stage_wallet_values v
         WHERE v.address = w.address AND NOT v.is_new
         RETURNING 1)
       SELECT count(*)::int AS n FROM updated`,
      [stateTime],
    );
    return { created: created[0]!.n, updated: updated[0]!.n };
  }

  /**
   * The wallets list's rankings (wallet-rankings.ts) of the wallets as this update left them, replacing
   * the previous update's, and the number of wallets the unfiltered list counts. Run after `upsert`, in
   * the update's transaction: a reader's snapshot sees the rankings of the wallets it sees.
   */
  async writeRankings(q: SqlRunner, stateTime: string): Promise<void> {
    await q.query(`DELETE FROM wallet_rankings`);
    // One statement for all the rankings: a statement each cost more in round trips than in sorting at 300 wallets.
    await q.query(
      `INSERT INTO wallet_rankings (ranking, chunk, addresses)
       ${WALLET_RANKINGS.map(
         (ranking, i) =>
           `SELECT $${i + 1}::text, (position - 1) / ${WALLET_RANKING_CHUNK}, array_agg(address ORDER BY position)
            FROM (SELECT address, row_number() OVER (ORDER BY ${rankingOrder(ranking)}) AS position FROM wallets) r
            GROUP BY 2`,
       ).join('\n       UNION ALL\n       ')}`,
      WALLET_RANKINGS.map((r) => r.name),
    );
    await q.query(
      `INSERT INTO wallet_rankings_status (id, state_time, wallets) SELECT 1, $1, count(*) FROM wallets
       ON CONFLICT (id) DO UPDATE SET state_time = EXCLUDED.state_time, wallets = EXCLUDED.wallets`,
      [stateTime],
    );
  }
}
