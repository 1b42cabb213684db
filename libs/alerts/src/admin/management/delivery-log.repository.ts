import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';
import type { DeliveryWakeUp } from '../../queue/delivery.queue.js';

export type DeliveryStatus = 'pending' | 'held' | 'delivered' | 'failed' | 'expired' | 'cancelled';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'held', 'delivered', 'failed', 'expired', 'cancelled'];

export interface DeliveryAttemptRecord {
  attempt: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  outcome: string;
  error: string | null;
  responseBody: string | null;
}

export interface DeliveryRecord {
  deliveryId: string;
  eventId: number;
  eventType: string;
  status: DeliveryStatus;
  heldReason: string | null;
  attemptCount: number;
  nextAttemptAt: string | null;
  occurredAt: string;
  createdAt: string;
  deliveredAt: string | null;
  /** When it stops being worth sending (price crossings and large orders: an hour after the occurrence); null: never. */
  expiresAt: string | null;
  lastError: string | null;
  payload: unknown;
  attempts: DeliveryAttemptRecord[];
}

interface DeliveryRow {
  delivery_id: string;
  rule_id: number;
  event_type: string;
  status: DeliveryStatus;
  held_reason: string | null;
  attempt_count: number;
  next_attempt_at: Date;
  occurred_at: Date;
  created_at: Date;
  created_us: string;
  delivered_at: Date | null;
  expires_at: Date | null;
  last_error: string | null;
  payload: string;
}

const COLUMNS = `delivery_id, rule_id, event_type, status, held_reason, attempt_count, next_attempt_at, occurred_at, created_at,
  (extract(epoch FROM created_at) * 1000000)::bigint::text AS created_us, delivered_at, expires_at, last_error, payload`;

/** The delivery log of an endpoint, and the manual re-sends. */
@Injectable()
export class DeliveryLogRepository {
  /** Newest first by (created_at, delivery_id); `after` is the last row of the previous page (created_at in µs). */
  async page(
    q: SqlRunner,
    endpointId: number,
    status: DeliveryStatus | undefined,
    limit: number,
    after: readonly [string, string] | null,
  ): Promise<Array<DeliveryRecord & { cursorKey: [string, string] }>> {
    const rows: DeliveryRow[] = await q.query(
      `SELECT ${COLUMNS} FROM webhook_deliveries
       WHERE webhook_endpoint_id = $1 AND ($2::text IS NULL OR status = $2)
         AND ($3::bigint IS NULL OR (created_at, delivery_id) < ('epoch'::timestamptz + $3::bigint * interval '1 microsecond', $4::text))
       ORDER BY created_at DESC, delivery_id DESC
       LIMIT $5`,
      [endpointId, status ?? null, after?.[0] ?? null, after?.[1] ?? null, limit],
    );
    const attempts = await this.attempts(
      q,
      rows.map((r) => r.delivery_id),
    );
    return rows.map((r) => ({ ...this.toRecord(r, attempts.get(r.delivery_id) ?? []), cursorKey: [r.created_us, r.delivery_id] }));
  }

  /** A delivery of the consumer's, with its attempts; null when there is none (or it is another consumer's). */
  async get(q: SqlRunner, consumerId: number, deliveryId: string): Promise<DeliveryRecord | null> {
    const rows: DeliveryRow[] = await q.query(`SELECT ${COLUMNS} FROM webhook_deliveries WHERE consumer_id = $1 AND delivery_id = $2`, [
      consumerId,
      deliveryId,
    ]);
    if (!rows[0]) return null;
    return this.toRecord(rows[0], (await this.attempts(q, [deliveryId])).get(deliveryId) ?? []);
  }

  /**
   * Back to pending with a fresh schedule (attempt_count 0); the attempts already made stay in the log,
   * numbered on from them. Only failed rows that have not passed their expiry move (the expiry counts
   * from the occurrence, so a retry does not extend it). Returns what to enqueue.
   */
  async resend(q: SqlRunner, where: { deliveryId: string } | { endpointId: number; sinceMs: number }): Promise<DeliveryWakeUp[]> {
    const byId = 'deliveryId' in where;
    const rows: Array<{ delivery_id: string; webhook_endpoint_id: number }> = await q.query(
      `WITH moved AS (
         UPDATE webhook_deliveries
         SET status = 'pending', attempt_count = 0, held_reason = NULL, next_attempt_at = now(), updated_at = now()
         WHERE status = 'failed' AND (expires_at IS NULL OR expires_at > now())
           AND ${byId ? 'delivery_id = $1' : `webhook_endpoint_id = $1 AND created_at >= 'epoch'::timestamptz + $2::bigint * interval '1 millisecond'`}
         RETURNING delivery_id, webhook_endpoint_id
       )
       SELECT delivery_id, webhook_endpoint_id FROM moved`,
      byId ? [where.deliveryId] : [where.endpointId, where.sinceMs],
    );
    return rows.map((r) => ({ deliveryId: r.delivery_id, webhookEndpointId: r.webhook_endpoint_id, attemptsMade: 0 }));
  }

  /**
   * A rule's deliveries still waiting (pending, retrying or held) become `cancelled`, in the caller's
   * transaction with the rule's deletion or pause: none of them is sent or charged afterwards.
   */
  async cancelForRule(q: SqlRunner, ruleId: number, why: string): Promise<number> {
    const rows = await q.query(
      `WITH cancelled AS (
         UPDATE webhook_deliveries SET status = 'cancelled', held_reason = NULL, last_error = $2, updated_at = now()
         WHERE rule_id = $1 AND status IN ('pending', 'held') RETURNING 1
       )
       SELECT count(*)::int AS n FROM cancelled`,
      [ruleId, why],
    );
    return (rows as Array<{ n: number }>)[0]!.n;
  }

  /** An endpoint's deliveries held for its pause or suspension, back to pending (on resume). Returns what to enqueue. */
  async releaseEndpointHolds(q: SqlRunner, endpointId: number): Promise<DeliveryWakeUp[]> {
    const rows: Array<{ delivery_id: string; attempt_count: number }> = await q.query(
      `WITH moved AS (
         UPDATE webhook_deliveries SET status = 'pending', held_reason = NULL, next_attempt_at = now(), updated_at = now()
         WHERE webhook_endpoint_id = $1 AND status = 'held' AND held_reason IN ('endpoint_paused', 'endpoint_suspended')
         RETURNING delivery_id, attempt_count
       )
       SELECT delivery_id, attempt_count FROM moved`,
      [endpointId],
    );
    return rows.map((r) => ({ deliveryId: r.delivery_id, webhookEndpointId: endpointId, attemptsMade: r.attempt_count }));
  }

  private async attempts(q: SqlRunner, ids: string[]): Promise<Map<string, DeliveryAttemptRecord[]>> {
    const byId = new Map<string, DeliveryAttemptRecord[]>();
    if (ids.length === 0) return byId;
    const rows: Array<{
      delivery_id: string;
      attempt: number;
      started_at: Date;
      duration_ms: number;
      status_code: number | null;
      outcome: string;
      error: string | null;
      response_body: string | null;
    }> = await q.query(
      `SELECT delivery_id, attempt, started_at, duration_ms, status_code, outcome, error, response_body FROM webhook_delivery_attempts WHERE delivery_id = ANY($1) ORDER BY delivery_id, attempt, id`,
      [ids],
    );
    for (const r of rows) {
      const list = byId.get(r.delivery_id) ?? [];
      list.push({
        attempt: r.attempt,
        startedAt: r.started_at.toISOString(),
        durationMs: r.duration_ms,
        statusCode: r.status_code,
        outcome: r.outcome,
        error: r.error,
        responseBody: r.response_body,
      });
      byId.set(r.delivery_id, list);
    }
    return byId;
  }

  private toRecord(r: DeliveryRow, attempts: DeliveryAttemptRecord[]): DeliveryRecord {
    return {
      deliveryId: r.delivery_id,
      eventId: r.rule_id,
      eventType: r.event_type,
      status: r.status,
      heldReason: r.held_reason,
      attemptCount: r.attempt_count,
      nextAttemptAt: r.status === 'pending' || r.status === 'held' ? r.next_attempt_at.toISOString() : null,
      occurredAt: r.occurred_at.toISOString(),
      createdAt: r.created_at.toISOString(),
      deliveredAt: r.delivered_at?.toISOString() ?? null,
      expiresAt: r.expires_at?.toISOString() ?? null,
      lastError: r.last_error,
      payload: JSON.parse(r.payload),
      attempts,
    };
  }
}
