/** Main-venue markets have no prefix; a HIP-3 market `xyz:TSLA` trades on the `xyz` exchange. */
export const DEX_SQL = (coin: string) => `CASE WHEN position(':' IN ${coin}) > 0 THEN split_part(${coin}, ':', 1) ELSE 'main' END`;
import { type SqlRunner } from '#database';

const POSITION_VALUES: Array<[column: string, expression: string]> = [
  ['size', 'abs(s.szi)'],
  ['entry_price', 's.entry_px'],
  ['value', 's.position_value'],
  ['unrealized_pnl', 's.unrealized_pnl'],
  ['funding', 's.funding'],
  ['liquidation_price', 's.liquidation_px'],
  ['liquidation_progress', 's.liquidation_progress'],
  ['leverage_type', 's.leverage_type'],
  ['leverage', 's.leverage'],
  ['margin_used', 's.margin_used'],
];

/**
 * Open and historical positions from a staged state update. Only wallets present in the update are
 * touched: a wallet the source failed to read keeps its positions as they were.
 */
export class PositionsStateRepository {
  /** A staged wallet's open position that is gone, or now on the other side, closes at the state time. */
  async closeGone(q: SqlRunner, stateTime: string): Promise<number> {
    const rows: Array<{ n: number }> = await q.query(
      `WITH closed AS (
         UPDATE positions p SET close_time = $1::timestamptz, updated_at = $1::timestamptz
         WHERE p.close_time IS NULL
           AND EXISTS (SELECT 1 FROM stage_wallets w WHERE w.address = p.address)
           AND NOT EXISTS (SELECT 1 FROM stage_positions s WHERE s.address = p.address AND s.coin = p.coin AND (s.szi > 0) = (p.side = 'long'))
         RETURNING 1)
       SELECT count(*)::int AS n FROM closed`,
      [stateTime],
    );
    return rows[0]!.n;
  }

  async updateOpen(q: SqlRunner, stateTime: string): Promise<number> {
    const rows: Array<{ n: number }> = await q.query(
      `WITH updated AS (
         UPDATE positions p SET updated_at = $1::timestamptz, ${POSITION_VALUES.map(([c, e]) => `${c} = ${e}`).join(', ')}
         FROM stage_positions s
         WHERE p.close_time IS NULL AND p.address = s.address AND p.coin = s.coin
         RETURNING 1)
       SELECT count(*)::int AS n FROM updated`,
      [stateTime],
    );
    return rows[0]!.n;
  }

  /**
   * Positions with no open row yet. The open time is that of the newest stored fill that took the
   * position from zero or from the other side; without such a fill (history not covered) it is the
   * state time, the first moment the position was seen.
   */
  async openNew(q: SqlRunner, stateTime: string): Promise<number> {
    const rows: Array<{ n: number }> = await q.query(
      `WITH inserted AS (
         INSERT INTO positions (address, coin, dex, side, ${POSITION_VALUES.map(([c]) => c).join(', ')}, open_time, close_time, created_at, updated_at)
         SELECT s.address, s.coin, ${DEX_SQL('s.coin')}, CASE WHEN s.szi > 0 THEN 'long' ELSE 'short' END,
                ${POSITION_VALUES.map(([, e]) => e).join(', ')},
                coalesce((SELECT f.time FROM fills f
                          WHERE f.address = s.address AND f.coin = s.coin AND f.time <= $1::timestamptz
                            AND (f.start_position = 0 OR sign(f.start_position) <> sign(s.szi))
                          ORDER BY f.time DESC LIMIT 1), $1::timestamptz),
                NULL, $1::timestamptz, $1::timestamptz
         FROM stage_positions s
         WHERE NOT EXISTS (SELECT 1 FROM positions p WHERE p.close_time IS NULL AND p.address = s.address AND p.coin = s.coin)
         RETURNING 1)
       SELECT count(*)::int AS n FROM inserted`,
      [stateTime],
    );
    return rows[0]!.n;
  }

  async analyze(q: SqlRunner): Promise<void> {
    await q.query(`ANALYZE positions`);
    await q.query(`ANALYZE wallets`);
  }
}
