import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Server-side alerts: a consumer's webhook endpoints, its alert rules, the delivery outbox and every
 * attempt made. A delivery row is written in the ingest transaction that saw its occurrence (the
 * outbox), keyed by its stable `delivery_id`, so a replay of the same blocks adds nothing; the
 * dispatcher moves it to delivered, failed or expired and records each attempt.
 *
 * `alert_rules_version` (one row, absent = version 0) is bumped by every change to a rule or to an
 * endpoint's state: the ingestor compares it inside each batch's transaction and reloads its rule index
 * when it differs, so a rule is in force for every batch committed after its creation (no message that
 * could be lost in between).
 */
export class Alerts1765000000000 implements MigrationInterface {
  name = 'Alerts1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id serial PRIMARY KEY,
        consumer_id integer NOT NULL REFERENCES consumers (id),
        url text NOT NULL,
        secret_key text,
        description text,
        paused boolean NOT NULL DEFAULT false,
        suspended_at timestamptz,
        suspended_reason text,
        consecutive_failures integer NOT NULL DEFAULT 0,
        last_success_at timestamptz,
        last_failure_at timestamptz,
        -- The first failed attempt since the last success: "no success for 5 days while failing" suspends.
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_endpoints_consumer_idx ON webhook_endpoints (consumer_id, id)`);
    await q.query(`
      CREATE TABLE alert_rules (
        id serial PRIMARY KEY,
        consumer_id integer NOT NULL REFERENCES consumers (id),
        webhook_endpoint_id integer NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        event_type text NOT NULL CHECK (event_type IN ('position_activity', 'twap_execution', 'twap_lifecycle', 'ledger_update', 'liquidation', 'price_crossing', 'large_market_order', 'state_updated')),
        addresses text[] NOT NULL DEFAULT '{}',
        filters jsonb NOT NULL DEFAULT '{}',
        paused boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX alert_rules_consumer_idx ON alert_rules (consumer_id, id)`);
    await q.query(`CREATE INDEX alert_rules_endpoint_idx ON alert_rules (webhook_endpoint_id)`);
    await q.query(`CREATE TABLE alert_rules_version (id smallint PRIMARY KEY CHECK (id = 1), version bigint NOT NULL)`);
    // No foreign key to the rule: the log of a deleted rule's deliveries stays readable on its endpoint.
    await q.query(`
      CREATE TABLE webhook_deliveries (
        delivery_id text PRIMARY KEY,
        consumer_id integer NOT NULL,
        webhook_endpoint_id integer NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        rule_id integer NOT NULL,
        event_type text NOT NULL,
        occurred_at timestamptz NOT NULL,
        payload text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'held', 'delivered', 'failed', 'expired')),
        held_reason text CHECK (held_reason IN ('endpoint_paused', 'endpoint_suspended', 'usage_limit')),
        attempt_count integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz,
        usage_charged boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // An endpoint's log, newest first (keyset on created_at, delivery_id).
    await q.query(
      `CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (webhook_endpoint_id, created_at DESC, delivery_id DESC)`,
    );
    // What the reconciler scans: rows still owed an attempt, and rows held for a reason that lifts by itself.
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'held')`);
    // Deliveries whose usage token is not yet counted: the charge is written in batches after the
    // delivered transition, and a crash in between leaves the row here for the next pass.
    await q.query(
      `CREATE INDEX webhook_deliveries_uncharged_idx ON webhook_deliveries (delivered_at) WHERE status = 'delivered' AND NOT usage_charged`,
    );
    await q.query(`
      CREATE TABLE webhook_delivery_attempts (
        id bigserial PRIMARY KEY,
        delivery_id text NOT NULL REFERENCES webhook_deliveries (delivery_id) ON DELETE CASCADE,
        webhook_endpoint_id integer NOT NULL,
        attempt integer NOT NULL,
        started_at timestamptz NOT NULL,
        duration_ms integer NOT NULL,
        status_code integer,
        outcome text NOT NULL CHECK (outcome IN ('delivered', 'retryable', 'permanent', 'gone')),
        error text,
        response_body text
      )`);
    await q.query(`CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts (delivery_id, id)`);
    // The health readout's 1 h / 24 h figures.
    await q.query(`CREATE INDEX webhook_delivery_attempts_endpoint_idx ON webhook_delivery_attempts (webhook_endpoint_id, started_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_delivery_attempts`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE alert_rules_version`);
    await q.query(`DROP TABLE alert_rules`);
    await q.query(`DROP TABLE webhook_endpoints`);
  }
}
