import type { PositionStateRecord, WalletStateRecord } from '#exchange';
import { type SqlRunner, copyChunks, copyLines, copyNullable, copyText } from '#database';

/**
 * Loads one state update into temporary tables so that everything derived from it is computed in
 * set-based SQL with exact numeric arithmetic. The tables are made once per connection and emptied at
 * every commit: creating and dropping them for each update cost more than the small updates themselves. A position's liquidation progress is
 * how far the mark has moved from entry toward the liquidation price (0 at entry or in profit, 1 at
 * liquidation); it reads the same for longs and shorts.
 */
export class StateStagingRepository {
  async create(q: SqlRunner): Promise<void> {
    await q.query(`
      CREATE TEMP TABLE IF NOT EXISTS stage_wallets (
        address text PRIMARY KEY,
        perp_equity numeric NOT NULL,
        all_time_pnl numeric,
        spot_hype numeric NOT NULL,
        staked_hype numeric NOT NULL
      ) ON COMMIT DELETE ROWS`);
    await q.query(`
      CREATE TEMP TABLE IF NOT EXISTS stage_positions (
        address text NOT NULL,
        coin text NOT NULL,
        szi numeric NOT NULL,
        entry_px numeric NOT NULL,
        position_value numeric NOT NULL,
        unrealized_pnl numeric NOT NULL,
        liquidation_px numeric,
        leverage_type text NOT NULL,
        leverage numeric NOT NULL,
        margin_used numeric NOT NULL,
        funding numeric NOT NULL,
        liquidation_progress numeric GENERATED ALWAYS AS (
          CASE WHEN liquidation_px IS NOT NULL AND liquidation_px <> entry_px
               THEN greatest(0, least(1, round((entry_px - position_value / abs(szi)) / (entry_px - liquidation_px), 6))) END) STORED,
        PRIMARY KEY (address, coin)
      ) ON COMMIT DELETE ROWS`);
    // Filled by WalletStateRepository.stageValues; its columns are what the wallets upsert reads.
    await q.query(`
      CREATE TEMP TABLE IF NOT EXISTS stage_wallet_values (
        address text NOT NULL,
        perp_equity numeric NOT NULL,
        perp_pnl numeric NOT NULL,
        spot_hype numeric NOT NULL,
        staked_hype numeric NOT NULL,
        spot_equity numeric NOT NULL,
        staked_equity numeric NOT NULL,
        open_value numeric NOT NULL,
        long_value numeric NOT NULL,
        short_value numeric NOT NULL,
        sum_upnl numeric NOT NULL,
        count_open_positions integer NOT NULL,
        closest_liq_coin text,
        closest_liq_progress numeric,
        is_new boolean NOT NULL
      ) ON COMMIT DELETE ROWS`);
  }

  /** Empties the tables for the next update of the same transaction. */
  async clear(q: SqlRunner): Promise<void> {
    await q.query(`TRUNCATE stage_wallets, stage_positions, stage_wallet_values`);
  }

  async loadWallets(q: SqlRunner, wallets: readonly WalletStateRecord[]): Promise<void> {
    await copyLines(
      q,
      'stage_wallets (address, perp_equity, all_time_pnl, spot_hype, staked_hype)',
      copyChunks(
        wallets,
        (w) => `${copyText(w.address.toLowerCase())}\t${w.perpEquity}\t${copyNullable(w.allTimePnl)}\t${w.spotHype}\t${w.stakedHype}\n`,
      ),
    );
    await analyzeIfChanged(q, 'stage_wallets', wallets.length);
  }

  async loadPositions(q: SqlRunner, positions: ReadonlyArray<{ address: string; position: PositionStateRecord }>): Promise<void> {
    await copyLines(
      q,
      'stage_positions (address, coin, szi, entry_px, position_value, unrealized_pnl, liquidation_px, leverage_type, leverage, margin_used, funding)',
      copyChunks(
        positions,
        ({ address, position: p }) =>
          `${copyText(address)}\t${copyText(p.coin)}\t${p.szi}\t${p.entryPx}\t${p.positionValue}\t${p.unrealizedPnl}\t${copyNullable(p.liquidationPx)}\t` +
          `${p.leverageType}\t${p.leverage}\t${p.marginUsed}\t${p.fundingSinceOpen}\n`,
      ),
    );
    await analyzeIfChanged(q, 'stage_positions', positions.length);
  }
}

/**
 * Temporary tables have no statistics until analysed, and the joins that follow need them. A table kept
 * from an earlier update keeps its column statistics, which stay good while the number of rows is about
 * the same: it is analysed again only when never analysed or when the rows differ from those it was
 * analysed with by more than a fifth. Between updates the planner reads the row count off the table's
 * current size.
 *
 * The count analysed is remembered in a setting of the session, not read from pg_class: emptying the
 * table at commit rebuilds its primary key's index, which sets the table's reltuples to 0, so that figure
 * never matched and every update analysed every table. A setting is the session's like the table, and
 * goes back with a transaction rolled back, as the statistics do; it holds the table's oid, so a table
 * made again (its first one rolled back) is analysed again.
 */
export async function analyzeIfChanged(q: SqlRunner, table: string, rows: number): Promise<void> {
  const setting = `tidewatch.analyzed_${table}`;
  const [row]: Array<{ analyzed: string | null; oid: string }> = await q.query(
    `SELECT current_setting($1, true) AS analyzed, $2::regclass::oid::text AS oid`,
    [setting, `pg_temp.${table}`],
  );
  const [oid, counted] = (row!.analyzed ?? '').split(':');
  const tuples = Number(counted);
  if (oid === row!.oid && Math.abs(rows - tuples) <= Math.max(100, tuples / 5)) return;
  await q.query(`ANALYZE ${table}`);
  await q.query(`SELECT set_config($1, $2, false)`, [setting, `${row!.oid}:${rows}`]);
}
