import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a delivery may become besides sent: `cancelled` when its rule is deleted or paused before it went
 * out, and old rows are removed after the retention period (ALERT_DELIVERY_RETENTION_DAYS). Expiry now
 * counts from the occurrence, so the rows still waiting are moved to that reckoning. The markets with mid
 * price ticks are kept, for the check of a price rule's market.
 */
export class AlertDeliveryLifecycle1765700000000 implements MigrationInterface {
  name = 'AlertDeliveryLifecycle1765700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_status_check`);
    await q.query(
      `ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check
       CHECK (status IN ('pending', 'held', 'delivered', 'failed', 'expired', 'cancelled'))`,
    );
    // A rule's deliveries still owed an attempt: what deleting or pausing it cancels.
    await q.query(`CREATE INDEX webhook_deliveries_rule_waiting_idx ON webhook_deliveries (rule_id) WHERE status IN ('pending', 'held')`);
    // Finished rows by their last change: what the retention pass removes, oldest first.
    await q.query(
      `CREATE INDEX webhook_deliveries_finished_idx ON webhook_deliveries (updated_at) WHERE status IN ('delivered', 'failed', 'expired', 'cancelled')`,
    );
    // Held rows by age: what the retention pass expires.
    await q.query(`CREATE INDEX webhook_deliveries_held_idx ON webhook_deliveries (created_at) WHERE status = 'held'`);
    await q.query(
      `UPDATE webhook_deliveries SET expires_at = occurred_at + (expires_at - created_at)
       WHERE expires_at IS NOT NULL AND status IN ('pending', 'held')`,
    );
    // Markets whose mid price has ticked (the public-API feed's price ticks): a price rule on one can fire
    // even when no tracked wallet ever traded it, so market_prices alone would not know it.
    await q.query(`CREATE TABLE alert_price_markets (coin text PRIMARY KEY, first_tick_at timestamptz NOT NULL DEFAULT now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE alert_price_markets`);
    await q.query(`DROP INDEX webhook_deliveries_held_idx`);
    await q.query(`DROP INDEX webhook_deliveries_finished_idx`);
    await q.query(`DROP INDEX webhook_deliveries_rule_waiting_idx`);
    await q.query(`UPDATE webhook_deliveries SET status = 'expired' WHERE status = 'cancelled'`);
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_status_check`);
    await q.query(
      `ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check
       CHECK (status IN ('pending', 'held', 'delivered', 'failed', 'expired'))`,
    );
  }
}
