import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';

/** The retention pass's SQL: each statement takes a bounded batch, so a large backlog is worked off in turns. */
@Injectable()
export class DeliveryRetentionRepository {
  /**
   * Held deliveries (endpoint paused or suspended, usage spent) that passed their expiry, or have been
   * held longer than the retention period, become `expired`: they are not sent on resume. Returns how many.
   */
  async expireHeld(q: SqlRunner, retentionDays: number, limit: number): Promise<number> {
    const rows: Array<{ n: number }> = await q.query(
      `WITH expired AS (
         UPDATE webhook_deliveries
         SET status = 'expired', held_reason = NULL, updated_at = now(),
             last_error = CASE WHEN expires_at <= now() THEN 'expired while held: past its expiry, an hour after the occurrence'
                               ELSE 'expired while held: held for more than ' || $1::int || ' days' END
         WHERE delivery_id IN (
           SELECT delivery_id FROM webhook_deliveries
           WHERE status = 'held' AND (expires_at <= now() OR created_at < now() - $1::int * interval '1 day')
           LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING 1
       )
       SELECT count(*)::int AS n FROM expired`,
      [retentionDays, limit],
    );
    return rows[0]!.n;
  }

  /**
   * Deletes finished deliveries (delivered and charged, failed, expired, cancelled) last changed more
   * than `retentionDays` ago, with their attempts (ON DELETE CASCADE). Returns how many.
   */
  async deleteFinished(q: SqlRunner, retentionDays: number, limit: number): Promise<number> {
    const rows: Array<{ n: number }> = await q.query(
      `WITH gone AS (
         DELETE FROM webhook_deliveries
         WHERE delivery_id IN (
           SELECT delivery_id FROM webhook_deliveries
           WHERE status IN ('delivered', 'failed', 'expired', 'cancelled') AND updated_at < now() - $1::int * interval '1 day'
             -- A delivered row not yet charged still owes its usage token.
             AND (status <> 'delivered' OR usage_charged)
           ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING 1
       )
       SELECT count(*)::int AS n FROM gone`,
      [retentionDays, limit],
    );
    return rows[0]!.n;
  }
}
