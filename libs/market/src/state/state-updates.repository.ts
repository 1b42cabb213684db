import { sqlArray, type SqlRunner } from '#database';

/** The record of applied updates and the single state-status row the status endpoint reads. */
export class StateUpdatesRepository {
  /** The newest applied update's height, locked so two writers cannot apply the same update. */
  async lockLatest(q: SqlRunner): Promise<number | null> {
    await q.query(`SELECT pg_advisory_xact_lock(hashtext('tidewatch.state_update'))`);
    const rows: Array<{ height: string | null }> = await q.query(`SELECT max(height)::text AS height FROM state_updates`);
    return rows[0]!.height === null ? null : Number(rows[0]!.height);
  }

  /** The newest applied update's height and exchange time (epoch ms), null before the first. */
  async newest(q: SqlRunner): Promise<{ height: number; timeMs: number } | null> {
    const rows: Array<{ height: string; time_ms: string }> = await q.query(
      `SELECT height::text, (extract(epoch FROM state_time) * 1000)::bigint::text AS time_ms FROM state_updates ORDER BY height DESC LIMIT 1`,
    );
    return rows[0] ? { height: Number(rows[0].height), timeMs: Number(rows[0].time_ms) } : null;
  }

  /** Applied updates, in height order: their rows, and the status of the newest. */
  async record(
    q: SqlRunner,
    updates: ReadonlyArray<{
      height: number;
      stateTime: string;
      hypePx: string | null;
      wallets: number;
      positions: number;
      processedAt: Date;
    }>,
  ): Promise<void> {
    await q.query(
      `INSERT INTO state_updates (height, state_time, hype_px, wallets, positions, processed_at)
       SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::numeric[], $4::integer[], $5::integer[], $6::timestamptz[])`,
      [
        sqlArray(updates.map((u) => u.height)),
        sqlArray(updates.map((u) => u.stateTime)),
        sqlArray(updates.map((u) => u.hypePx)),
        sqlArray(updates.map((u) => u.wallets)),
        sqlArray(updates.map((u) => u.positions)),
        sqlArray(updates.map((u) => u.processedAt.toISOString())),
      ],
    );
    const newest = updates[updates.length - 1]!;
    await q.query(
      `INSERT INTO state_status (id, latest_height, latest_state_time, processed_height, processed_state_time, processed_at)
       VALUES (1, $1, $2, $1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET
         processed_height = EXCLUDED.processed_height,
         processed_state_time = EXCLUDED.processed_state_time,
         processed_at = EXCLUDED.processed_at,
         latest_height = greatest(state_status.latest_height, EXCLUDED.latest_height),
         latest_state_time = greatest(state_status.latest_state_time, EXCLUDED.latest_state_time)`,
      [newest.height, newest.stateTime, newest.processedAt],
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
