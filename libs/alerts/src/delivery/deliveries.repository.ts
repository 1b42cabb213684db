import { Injectable } from '@nestjs/common';
import { epochMs, type SqlRunner } from '#database';
import type { EventType } from '../alert.types.js';
import { SUSPEND_AFTER_CONSECUTIVE_FAILURES, SUSPEND_AFTER_FAILING_FOR_MS } from './retry-policy.js';
import type { DeliveryWakeUp } from '../queue/delivery.queue.js';

/** A pending delivery with what its attempt needs of its endpoint. */
export interface DeliveryToSend {
  deliveryId: string;
  consumerId: number;
  webhookEndpointId: number;
  ruleId: number;
  eventType: EventType;
  occurredAtMs: number;
  payload: string;
  status: string;
  /** Attempts of the current schedule (a manual retry starts a new one). */
  attemptCount: number;
  /** The number the next attempt row gets: attempts are numbered across schedules. */
  nextAttemptNumber: number;
  expired: boolean;
  /** False when the rule was deleted or paused since the row was written: the delivery is cancelled, not sent. */
  ruleActive: boolean;
  url: string;
  secretKey: string | null;
  paused: boolean;
  suspended: boolean;
}

export type HeldReason = 'endpoint_paused' | 'endpoint_suspended' | 'usage_limit';

/** One attempt as recorded, and what it moves the delivery and its endpoint to. */
export interface AttemptRecord {
  deliveryId: string;
  webhookEndpointId: number;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  outcome: 'delivered' | 'retryable' | 'permanent' | 'gone';
  error: string | null;
  responseBody: string | null;
  /** For a retryable failure with attempts left: the wait before the next one; null: the delivery has failed. */
  retryInMs: number | null;
}

export interface AttemptApplied {
  /** False when the row was no longer pending (another worker got there first): nothing was recorded. */
  applied: boolean;
  /** The endpoint was suspended by this attempt (410, or the failure thresholds). */
  suspendedNow: boolean;
}

interface WakeUpRow {
  delivery_id: string;
  webhook_endpoint_id: number;
  attempt_count: number;
}

/** A row as the job that will attempt it next. */
export const wakeUp = (r: WakeUpRow): DeliveryWakeUp => ({
  deliveryId: r.delivery_id,
  webhookEndpointId: r.webhook_endpoint_id,
  attemptsMade: r.attempt_count,
});

const SUSPEND_AFTER_FAILURES = SUSPEND_AFTER_CONSECUTIVE_FAILURES;
const FAILING_FOR = `interval '${SUSPEND_AFTER_FAILING_FOR_MS / 1000} seconds'`;

/**
 * The dispatcher's SQL. Each attempt is one statement (attempt row, delivery transition, endpoint
 * health), so it commits whole and costs one round trip; a transition applies only to a row that is
 * still pending, so two workers racing on one delivery record one outcome.
 */
@Injectable()
export class DeliveriesRepository {
  /** The deliveries of `ids` that exist, with their endpoints, by id: one read for a batch of jobs. */
  async loadForSend(q: SqlRunner, ids: readonly string[]): Promise<Map<string, DeliveryToSend>> {
    const rows: Array<Record<string, unknown>> = await q.query(
      `SELECT d.delivery_id, d.consumer_id, d.webhook_endpoint_id, d.rule_id, d.event_type, ${epochMs('d.occurred_at')} AS occurred_ms,
              d.payload, d.status, d.attempt_count, coalesce(d.expires_at <= now(), false) AS expired,
              (SELECT coalesce(max(a.attempt), 0) + 1 FROM webhook_delivery_attempts a WHERE a.delivery_id = d.delivery_id) AS next_attempt,
              coalesce((SELECT NOT r.paused FROM alert_rules r WHERE r.id = d.rule_id), false) AS rule_active,
              e.url, e.secret_key, e.paused, e.suspended_at IS NOT NULL AS suspended
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.webhook_endpoint_id
       WHERE d.delivery_id = ANY($1::text[])`,
      [ids],
    );
    return new Map(
      rows.map((r) => [
        r.delivery_id as string,
        {
          deliveryId: r.delivery_id as string,
          consumerId: r.consumer_id as number,
          webhookEndpointId: r.webhook_endpoint_id as number,
          ruleId: r.rule_id as number,
          eventType: r.event_type as EventType,
          occurredAtMs: Number(r.occurred_ms),
          payload: r.payload as string,
          status: r.status as string,
          attemptCount: r.attempt_count as number,
          nextAttemptNumber: r.next_attempt as number,
          expired: r.expired as boolean,
          ruleActive: r.rule_active as boolean,
          url: r.url as string,
          secretKey: r.secret_key as string | null,
          paused: r.paused as boolean,
          suspended: r.suspended as boolean,
        },
      ]),
    );
  }

  /** Keeps a pending delivery for later: until its endpoint resumes, or (usage) until `until`. */
  async hold(q: SqlRunner, deliveryId: string, reason: HeldReason, until: Date | null = null): Promise<boolean> {
    const rows = await q.query(
      `WITH held AS (
         UPDATE webhook_deliveries SET status = 'held', held_reason = $2, next_attempt_at = coalesce($3, next_attempt_at), updated_at = now()
         WHERE delivery_id = $1 AND status = 'pending' RETURNING 1
       )
       SELECT 1 FROM held`,
      [deliveryId, reason, until?.toISOString() ?? null],
    );
    return rows.length === 1;
  }

  /** A pending delivery whose rule was deleted or paused: cancelled, never sent or charged. */
  cancel(q: SqlRunner, deliveryId: string): Promise<boolean> {
    return this.end(q, deliveryId, 'cancelled', 'cancelled: the rule was deleted or paused');
  }

  expire(q: SqlRunner, deliveryId: string): Promise<boolean> {
    return this.end(q, deliveryId, 'expired', 'expired: not delivered within an hour of the occurrence');
  }

  /** Ends a delivery still pending, never sent from then on; false if it was no longer pending. */
  private async end(q: SqlRunner, deliveryId: string, status: 'cancelled' | 'expired', error: string): Promise<boolean> {
    const rows = await q.query(
      `WITH ended AS (
         UPDATE webhook_deliveries SET status = $2, last_error = $3, updated_at = now()
         WHERE delivery_id = $1 AND status = 'pending' RETURNING 1
       )
       SELECT 1 FROM ended`,
      [deliveryId, status, error],
    );
    return rows.length === 1;
  }

  async recordAttempt(q: SqlRunner, a: AttemptRecord): Promise<AttemptApplied> {
    const status = a.outcome === 'delivered' ? 'delivered' : a.outcome === 'retryable' && a.retryInMs !== null ? 'pending' : 'failed';
    const failed = a.outcome !== 'delivered';
    const rows: Array<{ applied: boolean; suspended_now: boolean }> = await q.query(
      `WITH moved AS (
         UPDATE webhook_deliveries
         SET status = $8::text, attempt_count = attempt_count + 1, last_error = $7,
             next_attempt_at = CASE WHEN $8 = 'pending' THEN now() + $10::float8 * interval '1 millisecond' ELSE next_attempt_at END,
             delivered_at = CASE WHEN $8 = 'delivered' THEN now() END, updated_at = now()
         WHERE delivery_id = $1 AND status = 'pending'
         RETURNING delivery_id
       ), attempt AS (
         INSERT INTO webhook_delivery_attempts (delivery_id, webhook_endpoint_id, attempt, started_at, duration_ms, status_code, outcome, error, response_body)
         SELECT $1, $2, $3, $4::timestamptz, $5, $6::int, $11::text, $7::text, $9::text FROM moved
       ), health AS (
         UPDATE webhook_endpoints e
         SET consecutive_failures = CASE WHEN $12::boolean THEN e.consecutive_failures + 1 ELSE 0 END,
             failing_since = CASE WHEN $12 THEN coalesce(e.failing_since, now()) END,
             last_success_at = CASE WHEN $12 THEN e.last_success_at ELSE now() END,
             last_failure_at = CASE WHEN $12 THEN now() ELSE e.last_failure_at END,
             suspended_at = CASE WHEN e.suspended_at IS NULL AND $12 AND ($11 = 'gone' OR e.consecutive_failures + 1 >= ${SUSPEND_AFTER_FAILURES} OR e.failing_since <= now() - ${FAILING_FOR}) THEN now() ELSE e.suspended_at END,
             suspended_reason = CASE
               WHEN e.suspended_at IS NOT NULL OR NOT $12 THEN e.suspended_reason
               WHEN $11 = 'gone' THEN 'the receiver answered 410 Gone'
               WHEN e.consecutive_failures + 1 >= ${SUSPEND_AFTER_FAILURES} THEN '${SUSPEND_AFTER_FAILURES} consecutive failed attempts'
               WHEN e.failing_since <= now() - ${FAILING_FOR} THEN 'no successful delivery for 5 days'
               ELSE e.suspended_reason END,
             updated_at = CASE WHEN $12 THEN now() ELSE e.updated_at END
         FROM moved
         -- A success only writes when it changes something: a busy endpoint's row is not rewritten per delivery.
         WHERE e.id = $2 AND ($12 OR e.consecutive_failures <> 0 OR e.last_success_at IS NULL OR e.last_success_at < now() - interval '1 second')
         RETURNING (e.suspended_at IS NOT NULL) AS suspended_now
       )
       SELECT EXISTS (SELECT 1 FROM moved) AS applied, coalesce((SELECT bool_or(suspended_now) FROM health), false) AS suspended_now`,
      [
        a.deliveryId,
        a.webhookEndpointId,
        a.attempt,
        a.startedAt.toISOString(),
        a.durationMs,
        a.statusCode,
        a.error,
        status,
        a.responseBody,
        a.retryInMs ?? 0,
        a.outcome,
        failed,
      ],
    );
    return { applied: rows[0]!.applied, suspendedNow: rows[0]!.suspended_now };
  }

  /**
   * Successful attempts of distinct deliveries, recorded in one statement: what `recordAttempt` does for
   * each, in bulk. Returns the ids that were still pending (the others are left alone, no attempt row).
   */
  async recordDelivered(q: SqlRunner, attempts: readonly AttemptRecord[]): Promise<Set<string>> {
    if (attempts.length === 0) return new Set();
    const rows: Array<{ delivery_id: string }> = await q.query(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::timestamptz[], $5::int[], $6::int[], $7::text[])
                AS a (delivery_id, endpoint_id, attempt, started_at, duration_ms, status_code, response_body)
       ), moved AS (
         UPDATE webhook_deliveries d
         SET status = 'delivered', attempt_count = d.attempt_count + 1, last_error = NULL, delivered_at = now(), updated_at = now()
         FROM input a
         WHERE d.delivery_id = a.delivery_id AND d.status = 'pending'
         RETURNING d.delivery_id
       ), attempt AS (
         INSERT INTO webhook_delivery_attempts (delivery_id, webhook_endpoint_id, attempt, started_at, duration_ms, status_code, outcome, error, response_body)
         SELECT a.delivery_id, a.endpoint_id, a.attempt, a.started_at, a.duration_ms, a.status_code, 'delivered', NULL, a.response_body
         FROM input a JOIN moved USING (delivery_id)
       ), health AS (
         UPDATE webhook_endpoints e
         SET consecutive_failures = 0, failing_since = NULL, last_success_at = now()
         WHERE e.id IN (SELECT a.endpoint_id FROM input a JOIN moved USING (delivery_id))
           AND (e.consecutive_failures <> 0 OR e.last_success_at IS NULL OR e.last_success_at < now() - interval '1 second')
       )
       SELECT delivery_id FROM moved`,
      [
        attempts.map((a) => a.deliveryId),
        attempts.map((a) => a.webhookEndpointId),
        attempts.map((a) => a.attempt),
        attempts.map((a) => a.startedAt.toISOString()),
        attempts.map((a) => a.durationMs),
        attempts.map((a) => a.statusCode),
        attempts.map((a) => a.responseBody),
      ],
    );
    return new Set(rows.map((r) => r.delivery_id));
  }

  /** Held-for-usage rows whose period has reset, back to pending: what to enqueue. */
  async releaseUsageHolds(q: SqlRunner, limit: number): Promise<DeliveryWakeUp[]> {
    const rows: WakeUpRow[] = await q.query(
      `WITH released AS (
         UPDATE webhook_deliveries SET status = 'pending', held_reason = NULL, updated_at = now()
         WHERE delivery_id IN (
           SELECT delivery_id FROM webhook_deliveries
           WHERE status = 'held' AND held_reason = 'usage_limit' AND next_attempt_at <= now()
           ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING delivery_id, webhook_endpoint_id, attempt_count
       )
       SELECT delivery_id, webhook_endpoint_id, attempt_count FROM released`,
      [limit],
    );
    return rows.map(wakeUp);
  }

  /** Pending rows due for longer than `graceMs`: their job may have been lost with Redis. */
  async overdue(q: SqlRunner, graceMs: number, limit: number): Promise<DeliveryWakeUp[]> {
    const rows: WakeUpRow[] = await q.query(
      `SELECT delivery_id, webhook_endpoint_id, attempt_count FROM webhook_deliveries
       WHERE status = 'pending' AND next_attempt_at <= now() - $1::float8 * interval '1 millisecond'
       ORDER BY next_attempt_at LIMIT $2`,
      [graceMs, limit],
    );
    return rows.map(wakeUp);
  }

  /** Marks delivered rows as charged (in the caller's transaction, with the usage rows); returns them. */
  async takeUncharged(q: SqlRunner, limit: number): Promise<Array<{ consumerId: number; deliveredAtMs: number }>> {
    const rows: Array<{ consumer_id: number; delivered_ms: string }> = await q.query(
      `WITH charged AS (
         UPDATE webhook_deliveries SET usage_charged = true
         WHERE delivery_id IN (
           SELECT delivery_id FROM webhook_deliveries
           WHERE status = 'delivered' AND NOT usage_charged
           ORDER BY delivered_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING consumer_id, delivered_at
       )
       SELECT consumer_id, ${epochMs('delivered_at')} AS delivered_ms FROM charged`,
      [limit],
    );
    return rows.map((r) => ({ consumerId: r.consumer_id, deliveredAtMs: Number(r.delivered_ms) }));
  }
}
