import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import type { AppConfig } from '#config';
import { dataSourceOptions } from '#database';
import { resetDatabase, useTestEnvironment } from '#testing';
import { DeliveryRetention } from './delivery-retention.js';
import { DeliveryRetentionRepository } from './delivery-retention.repository.js';

// The retention pass on rows of every state and age: what it deletes (with the attempts), what it
// expires, and what it must leave alone (a delivered row whose usage token is not yet charged, rows
// still waiting, anything younger than the retention period).

describe('DeliveryRetention', () => {
  const config = useTestEnvironment();
  let dataSource: DataSource;
  let consumer: number;
  let endpoint: number;

  beforeAll(async () => {
    await resetDatabase(config.DATABASE_URL);
    dataSource = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
    [{ id: consumer }] = await dataSource.query(`INSERT INTO consumers (name, plan) VALUES ('alice', 'tier1') RETURNING id`);
    [{ id: endpoint }] = await dataSource.query(
      `INSERT INTO webhook_endpoints (consumer_id, url, paused) VALUES ($1, 'https://example.com/hook', true) RETURNING id`,
      [consumer],
    );
  });
  afterAll(async () => {
    await dataSource?.destroy();
  });

  /** A row `ageDays` old (created and last changed then), with `attempts` attempt rows. */
  async function row(
    id: string,
    status: string,
    ageDays: number,
    extra: { eventType?: string; expiresInHours?: number; charged?: boolean; heldReason?: string; attempts?: number } = {},
  ): Promise<void> {
    await dataSource.query(
      `INSERT INTO webhook_deliveries (delivery_id, consumer_id, webhook_endpoint_id, rule_id, event_type, occurred_at, payload, status,
                                       held_reason, expires_at, usage_charged, created_at, updated_at, delivered_at)
       VALUES ($1, $2, $3, 1, $4, now() - $5 * interval '1 day', '{}', $6, $7, now() + $8 * interval '1 hour', $9,
               now() - $5 * interval '1 day', now() - $5 * interval '1 day', CASE WHEN $6 = 'delivered' THEN now() - $5 * interval '1 day' END)`,
      [
        id,
        consumer,
        endpoint,
        extra.eventType ?? 'ledger_update',
        ageDays,
        status,
        extra.heldReason ?? (status === 'held' ? 'endpoint_paused' : null),
        extra.expiresInHours ?? null,
        extra.charged ?? false,
      ],
    );
    for (let n = 1; n <= (extra.attempts ?? 0); n++)
      await dataSource.query(
        `INSERT INTO webhook_delivery_attempts (delivery_id, webhook_endpoint_id, attempt, started_at, duration_ms, status_code, outcome)
         VALUES ($1, $2, $3, now() - $4 * interval '1 day', 10, 200, 'delivered')`,
        [id, endpoint, n, ageDays],
      );
  }

  it('is 30 days unless ALERT_DELIVERY_RETENTION_DAYS says otherwise', () => {
    expect(config.ALERT_DELIVERY_RETENTION_DAYS).toBe(30);
  });

  it('deletes finished rows older than the retention with their attempts, expires stale held rows, and keeps the rest', async () => {
    await row('old-delivered', 'delivered', 31, { charged: true, attempts: 2 });
    await row('old-delivered-uncharged', 'delivered', 31, { attempts: 1 });
    await row('old-failed', 'failed', 31, { attempts: 3 });
    await row('old-expired', 'expired', 40);
    await row('old-cancelled', 'cancelled', 31);
    await row('recent-delivered', 'delivered', 29, { charged: true, attempts: 1 });
    await row('held-price-past-expiry', 'held', 0.1, { eventType: 'price_crossing', expiresInHours: -0.5 });
    await row('held-price-in-time', 'held', 0.01, { eventType: 'price_crossing', expiresInHours: 0.5 });
    await row('held-too-long', 'held', 31);
    await row('held-for-usage-too-long', 'held', 31, { heldReason: 'usage_limit' });
    await row('held-recent', 'held', 1);
    await row('pending-old', 'pending', 31);

    const retention = new DeliveryRetention(
      { ALERT_DELIVERY_RETENTION_DAYS: 30 } as AppConfig,
      dataSource,
      new DeliveryRetentionRepository(),
    );
    expect(await retention.sweep()).toEqual({ expired: 3, deleted: 4 });
    expect(
      await dataSource.query(`SELECT delivery_id, status, held_reason, last_error FROM webhook_deliveries ORDER BY delivery_id`),
    ).toEqual([
      {
        delivery_id: 'held-for-usage-too-long',
        status: 'expired',
        held_reason: null,
        last_error: 'expired while held: held for more than 30 days',
      },
      { delivery_id: 'held-price-in-time', status: 'held', held_reason: 'endpoint_paused', last_error: null },
      {
        delivery_id: 'held-price-past-expiry',
        status: 'expired',
        held_reason: null,
        last_error: 'expired while held: past its expiry, an hour after the occurrence',
      },
      { delivery_id: 'held-recent', status: 'held', held_reason: 'endpoint_paused', last_error: null },
      { delivery_id: 'held-too-long', status: 'expired', held_reason: null, last_error: 'expired while held: held for more than 30 days' },
      { delivery_id: 'old-delivered-uncharged', status: 'delivered', held_reason: null, last_error: null },
      { delivery_id: 'pending-old', status: 'pending', held_reason: null, last_error: null },
      { delivery_id: 'recent-delivered', status: 'delivered', held_reason: null, last_error: null },
    ]);
    // The attempts went with their rows; the kept rows keep theirs.
    expect(
      await dataSource.query(
        `SELECT delivery_id, count(*)::int AS n FROM webhook_delivery_attempts GROUP BY delivery_id ORDER BY delivery_id`,
      ),
    ).toEqual([
      { delivery_id: 'old-delivered-uncharged', n: 1 },
      { delivery_id: 'recent-delivered', n: 1 },
    ]);

    // Expired just now, the held rows stay readable in the log for another retention period; once its
    // charge is written, the uncharged row goes on the next pass.
    await dataSource.query(`UPDATE webhook_deliveries SET usage_charged = true WHERE delivery_id = 'old-delivered-uncharged'`);
    expect(await retention.sweep()).toEqual({ expired: 0, deleted: 1 });
    expect((await dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries`))[0].n).toBe(7);
  });
});
