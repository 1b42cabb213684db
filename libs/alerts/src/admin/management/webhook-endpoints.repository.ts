import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';

/** An endpoint as its owner reads it: the secret is never read back, only whether there is one. */
export interface WebhookEndpointRecord {
  id: number;
  url: string;
  description: string | null;
  status: 'active' | 'paused' | 'suspended';
  hasSecret: boolean;
  suspendedReason: string | null;
  createdAt: string;
  updatedAt: string;
}

interface EndpointRow {
  id: number;
  url: string;
  description: string | null;
  paused: boolean;
  suspended_at: Date | null;
  suspended_reason: string | null;
  has_secret: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'id, url, description, paused, suspended_at, suspended_reason, secret_key IS NOT NULL AS has_secret, created_at, updated_at';

const toRecord = (r: EndpointRow): WebhookEndpointRecord => ({
  id: r.id,
  url: r.url,
  description: r.description,
  // A suspension outranks a pause: it is what the owner must act on.
  status: r.suspended_at ? 'suspended' : r.paused ? 'paused' : 'active',
  hasSecret: r.has_secret,
  suspendedReason: r.suspended_reason,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

export interface EndpointChanges {
  url: string;
  /** undefined: unchanged; null: removed. */
  secretKey?: string | null;
  description: string | null;
  /** undefined: unchanged. */
  paused?: boolean;
}

export interface EndpointHealthRow {
  consecutive_failures: number;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  hour_attempts: number;
  hour_successes: number;
  day_attempts: number;
  day_successes: number;
  p50: number | null;
  p95: number | null;
}

/** Webhook endpoints, always scoped to their consumer. */
@Injectable()
export class WebhookEndpointsRepository {
  async count(q: SqlRunner, consumerId: number): Promise<number> {
    const rows: Array<{ n: number }> = await q.query(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE consumer_id = $1`, [
      consumerId,
    ]);
    return rows[0]!.n;
  }

  async create(
    q: SqlRunner,
    consumerId: number,
    e: { url: string; secretKey: string | null; description: string | null },
  ): Promise<WebhookEndpointRecord> {
    const rows: EndpointRow[] = await q.query(
      `INSERT INTO webhook_endpoints (consumer_id, url, secret_key, description) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [consumerId, e.url, e.secretKey, e.description],
    );
    return toRecord(rows[0]!);
  }

  async list(q: SqlRunner, consumerId: number): Promise<WebhookEndpointRecord[]> {
    const rows: EndpointRow[] = await q.query(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE consumer_id = $1 ORDER BY id`, [consumerId]);
    return rows.map(toRecord);
  }

  async get(q: SqlRunner, consumerId: number, id: number): Promise<WebhookEndpointRecord | null> {
    const rows: EndpointRow[] = await q.query(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE consumer_id = $1 AND id = $2`, [
      consumerId,
      id,
    ]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** The endpoint as changed, and whether it was paused before (what decides if held deliveries are released). */
  async update(
    q: SqlRunner,
    consumerId: number,
    id: number,
    c: EndpointChanges,
  ): Promise<{ record: WebhookEndpointRecord; wasPaused: boolean } | null> {
    const rows: Array<EndpointRow & { was_paused: boolean }> = await q.query(
      `WITH before AS (
         SELECT id AS before_id, paused AS was_paused FROM webhook_endpoints WHERE consumer_id = $1 AND id = $2 FOR UPDATE
       ), changed AS (
         UPDATE webhook_endpoints
         SET url = $3, description = $4, paused = coalesce($5, paused), updated_at = now(),
             secret_key = CASE WHEN $6::boolean THEN $7 ELSE secret_key END
         FROM before WHERE id = before_id RETURNING ${COLUMNS}, was_paused
       )
       SELECT * FROM changed`,
      [consumerId, id, c.url, c.description, c.paused ?? null, c.secretKey !== undefined, c.secretKey ?? null],
    );
    return rows[0] ? { record: toRecord(rows[0]), wasPaused: rows[0].was_paused } : null;
  }

  /** Deletes the endpoint with its rules and deliveries (foreign keys cascade). */
  async delete(q: SqlRunner, consumerId: number, id: number): Promise<boolean> {
    const rows = await q.query(
      `WITH gone AS (DELETE FROM webhook_endpoints WHERE consumer_id = $1 AND id = $2 RETURNING 1) SELECT 1 FROM gone`,
      [consumerId, id],
    );
    return rows.length === 1;
  }

  async setPaused(q: SqlRunner, consumerId: number, id: number, paused: boolean): Promise<WebhookEndpointRecord | null> {
    const rows: EndpointRow[] = await q.query(
      `WITH changed AS (UPDATE webhook_endpoints SET paused = $3, updated_at = now() WHERE consumer_id = $1 AND id = $2 RETURNING ${COLUMNS})
       SELECT * FROM changed`,
      [consumerId, id, paused],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Unpauses, lifts a suspension and clears the failure streak. */
  async resume(q: SqlRunner, consumerId: number, id: number): Promise<WebhookEndpointRecord | null> {
    const rows: EndpointRow[] = await q.query(
      `WITH changed AS (
         UPDATE webhook_endpoints
         SET paused = false, suspended_at = NULL, suspended_reason = NULL, consecutive_failures = 0, failing_since = NULL, updated_at = now()
         WHERE consumer_id = $1 AND id = $2 RETURNING ${COLUMNS}
       )
       SELECT * FROM changed`,
      [consumerId, id],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Success and failure counts over the last hour and day, and latency percentiles (continuous, to 0.1 ms) over the day. */
  async health(q: SqlRunner, id: number): Promise<EndpointHealthRow> {
    const rows: EndpointHealthRow[] = await q.query(
      `SELECT e.consecutive_failures, e.last_success_at, e.last_failure_at,
              count(a.id) FILTER (WHERE a.started_at > now() - interval '1 hour')::int AS hour_attempts,
              count(a.id) FILTER (WHERE a.started_at > now() - interval '1 hour' AND a.outcome = 'delivered')::int AS hour_successes,
              count(a.id)::int AS day_attempts,
              count(a.id) FILTER (WHERE a.outcome = 'delivered')::int AS day_successes,
              round(percentile_cont(0.5) WITHIN GROUP (ORDER BY a.duration_ms)::numeric, 1)::float8 AS p50,
              round(percentile_cont(0.95) WITHIN GROUP (ORDER BY a.duration_ms)::numeric, 1)::float8 AS p95
       FROM webhook_endpoints e
       LEFT JOIN webhook_delivery_attempts a ON a.webhook_endpoint_id = e.id AND a.started_at > now() - interval '24 hours'
       WHERE e.id = $1
       GROUP BY e.id`,
      [id],
    );
    return rows[0]!;
  }
}
