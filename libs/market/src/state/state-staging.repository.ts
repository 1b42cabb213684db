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
  }

  async loadWallets(q: SqlRunner, wallets: readonly WalletStateRecord[]): Promise<void> {
    await copyLines(
      q,
      'stage_wallets (address, perp_equity, all_time_pnl, spot_hype, staked_hype)',
      copyChunks(wallets, (w) => `${copyText(w.address.toLowerCase())}\t${w.perpEquity}\t${copyNullable(w.allTimePnl)}\t${w.spotHype}\t${w.stakedHype}\n`),
    );
    await analyzeIfChanged(q, 'stage_wallets', wallets.length);
  }

  async loadPositions(q: SqlRunner, positions: ReadonlyArray<{ address: string; position: PositionStateRecord }>): Promise<void> {
    await copyLines(
      q,
      'stage_positions (address, coin, szi, entry_px, position_value, unrealized_pnl, liquidation_px, leverage_type, leverage, margin_used, funding)',
      copyChunks(positions, ({ address, position: p }) =>
        `${copyText(address)}\t${copyText(p.coin)}\t${p.szi}\t${p.entryPx}\t${p.positionValue}\t${p.unrealizedPnl}\t${copyNullable(p.liquidationPx)}\t` +
        `${p.leverageType}\t${p.leverage}\t${p.marginUsed}\t${p.fundingSinceOpen}\n`,
      ),
    );
    await analyzeIfChanged(q, 'stage_positions', positions.length);
  }
}

/**
 * Temporary tables have no statistics until analysed, and the joins that follow need them. A table kept
 * from an earlier update keeps its statistics, which stay good while the number of rows is about the
 * same: it is analysed again only when never analysed or when the rows differ from its figure by more
 * than a fifth.
 */
async function analyzeIfChanged(q: SqlRunner, table: string, rows: number): Promise<void> {
  const [row]: Array<{ tuples: number }> = await q.query(`SELECT reltuples::float8 AS tuples FROM pg_class WHERE oid = $1::regclass`, [`pg_temp.${table}`]);
  const tuples = row?.tuples ?? -1;
  if (tuples < 0 || Math.abs(rows - tuples) > Math.max(100, tuples / 5)) await q.query(`ANALYZE ${table}`);
}
