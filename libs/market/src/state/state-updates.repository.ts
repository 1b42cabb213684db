import { type SqlRunner } from '#database';

/** The record of applied updates and the single state-status row the status endpoint reads. */
export class StateUpdatesRepository {
  /** The newest applied update's height, locked so two writers cannot apply the same update. */
  async lockLatest(q: SqlRunner): Promise<number | null> {
    await q.query(`SELECT pg_advisory_xact_lock(hashtext('tidewatch.state_update'))`);
    const rows: Array<{ height: string | null }> = await q.query(`SELECT max(height)::text AS height FROM state_updates`);
    return rows[0]!.height === null ? null : Number(rows[0]!.height);
  }

  async record(q: SqlRunner, update: { height: number; stateTime: string; hypePx: string | null; wallets: number; positions: number; processedAt: Date }): Promise<void> {
    await q.query(
      `INSERT INTO state_updates (height, state_time, hype_px, wallets, positions, processed_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [update.height, update.stateTime, update.hypePx, update.wallets, update.positions, update.processedAt],
    );
    await q.query(
      `INSERT INTO state_status (id, latest_height, latest_state_time, processed_height, processed_state_time, processed_at)
       VALUES (1, $1, $2, $1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET
         processed_height = EXCLUDED.processed_height,
         processed_state_time = EXCLUDED.processed_state_time,
         processed_at = EXCLUDED.processed_at,
         latest_height = greatest(state_status.latest_height, EXCLUDED.latest_height),
         latest_state_time = greatest(state_status.latest_state_time, EXCLUDED.latest_state_time)`,
      [update.height, update.stateTime, update.processedAt],
    );
  }

  /** A newer state has been read and is being applied: the status says the latest is not processed yet. */
  async noteSeen(q: SqlRunner, height: number, stateTime: string): Promise<void> {
    await q.query(
      `INSERT INTO state_status (id, latest_height, latest_state_time) VALUES (1, $1, $2)
       ON CONFLICT (id) DO UPDATE SET
         latest_height = greatest(state_status.latest_height, EXCLUDED.latest_height),
         latest_state_time = greatest(state_status.latest_state_time, EXCLUDED.latest_state_time)`,
      [height, stateTime],
    );
  }
}
