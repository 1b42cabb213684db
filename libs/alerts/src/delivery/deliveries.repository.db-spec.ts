import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { resetDatabase, useTestEnvironment } from '#testing';
import { DeliveriesRepository, type AttemptRecord } from './deliveries.repository.js';
import { DeliveryRows } from './delivery-rows.js';

const repository = new DeliveriesRepository();
let dataSource: DataSource;
let consumer: number;
let endpoint: number;
let rule: number;

beforeAll(async () => {
  const config = useTestEnvironment();
  await resetDatabase(config.DATABASE_URL);
  dataSource = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
  [{ id: consumer }] = await dataSource.query(`INSERT INTO consumers (name, plan) VALUES ('alice', 'tier1') RETURNING id`);
});
afterAll(async () => {
  await dataSource?.destroy();
});
beforeEach(async () => {
  await dataSource.query(`TRUNCATE webhook_delivery_attempts, webhook_deliveries, webhook_endpoints CASCADE`);
  [{ id: endpoint }] = await dataSource.query(
    `INSERT INTO webhook_endpoints (consumer_id, url, secret_key) VALUES ($1, 'https://example.com/hook', 's3cret-s3cret') RETURNING id`,
    [consumer],
  );
  [{ id: rule }] = await dataSource.query(
    `INSERT INTO alert_rules (consumer_id, webhook_endpoint_id, event_type) VALUES ($1, $2, 'position_activity') RETURNING id`,
    [consumer, endpoint],
  );
});

async function pending(id: string, eventType = 'position_activity', expiresAt: string | null = null): Promise<void> {
  await dataSource.query(
    `INSERT INTO webhook_deliveries (delivery_id, consumer_id, webhook_endpoint_id, rule_id, event_type, occurred_at, payload, status, expires_at)
     VALUES ($1, $2, $3, $6, $4, '2026-11-20T10:00:00.123Z', '{"a":"1.50"}', 'pending', $5)`,
    [id, consumer, endpoint, eventType, expiresAt, rule],
  );
}

const attempt = (id: string, n: number, outcome: AttemptRecord['outcome'], retryInMs: number | null = null): AttemptRecord => ({
  deliveryId: id,
  webhookEndpointId: endpoint,
  attempt: n,
  startedAt: new Date('2026-11-25T00:00:00.000Z'),
  durationMs: 12,
  statusCode: outcome === 'delivered' ? 200 : outcome === 'gone' ? 410 : outcome === 'permanent' ? 400 : 503,
  outcome,
  error: outcome === 'delivered' ? null : 'HTTP x',
  responseBody: 'ok',
  retryInMs,
});

const row = async (id: string) =>
  (
    await dataSource.query(
      `SELECT status, attempt_count, held_reason, last_error, delivered_at IS NOT NULL AS delivered, next_attempt_at > now() + interval '4 minutes' AS later FROM webhook_deliveries WHERE delivery_id = $1`,
      [id],
    )
  )[0];
const health = async () =>
  (
    await dataSource.query(
      `SELECT consecutive_failures, failing_since IS NOT NULL AS failing, last_success_at IS NOT NULL AS succeeded, suspended_at IS NOT NULL AS suspended, suspended_reason FROM webhook_endpoints WHERE id = $1`,
      [endpoint],
    )
  )[0];

describe('DeliveriesRepository', () => {
  it('loads a delivery with its endpoint, numbering the next attempt after the recorded ones', async () => {
    await pending('d1');
    expect((await repository.loadForSend(dataSource, ['d1'])).get('d1')).toEqual({
      deliveryId: 'd1',
      consumerId: consumer,
      webhookEndpointId: endpoint,
      ruleId: rule,
      eventType: 'position_activity',
      occurredAtMs: Date.parse('2026-11-20T10:00:00.123Z'),
      payload: '{"a":"1.50"}',
      status: 'pending',
      attemptCount: 0,
      nextAttemptNumber: 1,
      expired: false,
      ruleActive: true,
      url: 'https://example.com/hook',
      secretKey: 's3cret-s3cret',
      paused: false,
      suspended: false,
    });
    await repository.recordAttempt(dataSource, attempt('d1', 1, 'retryable', 300_000));
    expect((await repository.loadForSend(dataSource, ['d1'])).get('d1')!.nextAttemptNumber).toBe(2);
    expect([...(await repository.loadForSend(dataSource, ['missing', 'd1'])).keys()]).toEqual(['d1']);
    // A paused or deleted rule: its delivery is no longer in force.
    await dataSource.query(`UPDATE alert_rules SET paused = true WHERE id = $1`, [rule]);
    expect((await repository.loadForSend(dataSource, ['d1'])).get('d1')!.ruleActive).toBe(false);
    await dataSource.query(`DELETE FROM alert_rules WHERE id = $1`, [rule]);
    expect((await repository.loadForSend(dataSource, ['d1'])).get('d1')!.ruleActive).toBe(false);
  });

  it('cancels a pending delivery, and only a pending one', async () => {
    await pending('d1');
    await pending('d2');
    await repository.recordAttempt(dataSource, attempt('d2', 1, 'delivered'));
    expect(await repository.cancel(dataSource, 'd1')).toBe(true);
    expect(await repository.cancel(dataSource, 'd2')).toBe(false);
    expect(await row('d1')).toMatchObject({
      status: 'cancelled',
      attempt_count: 0,
      last_error: 'cancelled: the rule was deleted or paused',
    });
    expect(await row('d2')).toMatchObject({ status: 'delivered', attempt_count: 1 });
  });

  it('a success delivers the row, records the attempt and clears the failure streak', async () => {
    await pending('d1');
    await pending('d2');
    await repository.recordAttempt(dataSource, attempt('d1', 1, 'retryable', 5_000));
    expect(await health()).toEqual({ consecutive_failures: 1, failing: true, succeeded: false, suspended: false, suspended_reason: null });
    expect(await repository.recordAttempt(dataSource, attempt('d2', 1, 'delivered'))).toEqual({ applied: true, suspendedNow: false });
    expect(await row('d2')).toEqual({
      status: 'delivered',
      attempt_count: 1,
      held_reason: null,
      last_error: null,
      delivered: true,
      later: false,
    });
    expect(await health()).toEqual({ consecutive_failures: 0, failing: false, succeeded: true, suspended: false, suspended_reason: null });
    const attempts = await dataSource.query(
      `SELECT delivery_id, attempt, status_code, outcome, response_body FROM webhook_delivery_attempts ORDER BY id`,
    );
    expect(attempts).toEqual([
      { delivery_id: 'd1', attempt: 1, status_code: 503, outcome: 'retryable', response_body: 'ok' },
      { delivery_id: 'd2', attempt: 1, status_code: 200, outcome: 'delivered', response_body: 'ok' },
    ]);
  });

  it('a retryable failure keeps the row pending until the next attempt; without attempts left it fails', async () => {
    await pending('d1');
    await repository.recordAttempt(dataSource, attempt('d1', 1, 'retryable', 300_000));
    expect(await row('d1')).toMatchObject({ status: 'pending', attempt_count: 1, last_error: 'HTTP x', later: true });
    await repository.recordAttempt(dataSource, attempt('d1', 2, 'retryable', null));
    expect(await row('d1')).toMatchObject({ status: 'failed', attempt_count: 2 });
  });

  it('records nothing for a row that is no longer pending (a second worker racing on it)', async () => {
    await pending('d1');
    await repository.recordAttempt(dataSource, attempt('d1', 1, 'delivered'));
    expect(await repository.recordAttempt(dataSource, attempt('d1', 2, 'delivered'))).toEqual({ applied: false, suspendedNow: false });
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM webhook_delivery_attempts`)).toEqual([{ n: 1 }]);
  });

  it('records a batch of successes in one statement exactly as one by one: rows, attempts, and a failing endpoint healed', async () => {
    await dataSource.query(`UPDATE webhook_endpoints SET consecutive_failures = 7, failing_since = now() WHERE id = $1`, [endpoint]);
    await pending('d1');
    await pending('d2');
    await pending('d3');
    await repository.recordAttempt(dataSource, attempt('d3', 1, 'delivered'));
    const applied = await repository.recordDelivered(dataSource, [
      attempt('d1', 1, 'delivered'),
      { ...attempt('d2', 4, 'delivered'), durationMs: 40, responseBody: null },
      attempt('d3', 2, 'delivered'),
      attempt('missing', 1, 'delivered'),
    ]);
    expect([...applied].sort()).toEqual(['d1', 'd2']);
    for (const id of ['d1', 'd2'])
      expect(await row(id)).toMatchObject({ status: 'delivered', attempt_count: 1, last_error: null, delivered: true });
    expect(
      await dataSource.query(
        `SELECT delivery_id, webhook_endpoint_id, attempt, started_at, duration_ms, status_code, outcome, error, response_body FROM webhook_delivery_attempts ORDER BY delivery_id, attempt`,
      ),
    ).toEqual([
      {
        delivery_id: 'd1',
        webhook_endpoint_id: endpoint,
        attempt: 1,
        started_at: new Date('2026-11-25T00:00:00.000Z'),
        duration_ms: 12,
        status_code: 200,
        outcome: 'delivered',
        error: null,
        response_body: 'ok',
      },
      {
        delivery_id: 'd2',
        webhook_endpoint_id: endpoint,
        attempt: 4,
        started_at: new Date('2026-11-25T00:00:00.000Z'),
        duration_ms: 40,
        status_code: 200,
        outcome: 'delivered',
        error: null,
        response_body: null,
      },
      {
        delivery_id: 'd3',
        webhook_endpoint_id: endpoint,
        attempt: 1,
        started_at: new Date('2026-11-25T00:00:00.000Z'),
        duration_ms: 12,
        status_code: 200,
        outcome: 'delivered',
        error: null,
        response_body: 'ok',
      },
    ]);
    expect(await health()).toMatchObject({ consecutive_failures: 0, failing: false, succeeded: true, suspended: false });
  });

  it('batches the jobs in flight: one read for many, successes together, failures alone in the order they finished', async () => {
    const rows = new DeliveryRows(dataSource, repository);
    for (const id of ['d1', 'd2', 'd3', 'd4']) await pending(id);
    const loaded = await Promise.all(['d1', 'd2', 'missing', 'd1'].map((id) => rows.load(id)));
    expect(loaded.map((d) => d?.deliveryId ?? null)).toEqual(['d1', 'd2', null, 'd1']);
    // d1 succeeds twice (a duplicate job): its second attempt is recorded alone and changes nothing.
    const results = await Promise.all([
      rows.record(attempt('d1', 1, 'delivered')),
      rows.record(attempt('d2', 1, 'delivered')),
      rows.record(attempt('d3', 1, 'retryable', 5_000)),
      rows.record(attempt('d1', 2, 'delivered')),
      rows.record(attempt('d4', 1, 'delivered')),
    ]);
    expect(results).toEqual([
      { applied: true, suspendedNow: false },
      { applied: true, suspendedNow: false },
      { applied: true, suspendedNow: false },
      { applied: false, suspendedNow: false },
      { applied: true, suspendedNow: false },
    ]);
    expect(await dataSource.query(`SELECT delivery_id, attempt, outcome FROM webhook_delivery_attempts ORDER BY id`)).toEqual([
      { delivery_id: 'd1', attempt: 1, outcome: 'delivered' },
      { delivery_id: 'd2', attempt: 1, outcome: 'delivered' },
      { delivery_id: 'd3', attempt: 1, outcome: 'retryable' },
      { delivery_id: 'd4', attempt: 1, outcome: 'delivered' },
    ]);
    // The success after the failure is the last word on the endpoint's health.
    expect(await health()).toMatchObject({ consecutive_failures: 0, failing: false, succeeded: true });
    expect(await row('d3')).toMatchObject({ status: 'pending', attempt_count: 1 });
  });

  it('a 410 fails the delivery and suspends the endpoint at once', async () => {
    await pending('d1');
    expect(await repository.recordAttempt(dataSource, attempt('d1', 1, 'gone'))).toEqual({ applied: true, suspendedNow: true });
    expect(await row('d1')).toMatchObject({ status: 'failed' });
    expect(await health()).toMatchObject({ suspended: true, suspended_reason: 'the receiver answered 410 Gone' });
  });

  it('suspends on the 100th consecutive failed attempt, not the 99th', async () => {
    await dataSource.query(`UPDATE webhook_endpoints SET consecutive_failures = 98, failing_since = now() WHERE id = $1`, [endpoint]);
    await pending('d1');
    await pending('d2');
    expect((await repository.recordAttempt(dataSource, attempt('d1', 1, 'retryable', 5_000))).suspendedNow).toBe(false);
    expect(await health()).toMatchObject({ consecutive_failures: 99, suspended: false });
    expect((await repository.recordAttempt(dataSource, attempt('d2', 1, 'permanent'))).suspendedNow).toBe(true);
    expect(await health()).toMatchObject({
      consecutive_failures: 100,
      suspended: true,
      suspended_reason: '100 consecutive failed attempts',
    });
  });

  it('suspends an endpoint that has been failing for 5 days', async () => {
    await dataSource.query(
      `UPDATE webhook_endpoints SET consecutive_failures = 3, failing_since = now() - interval '5 days 1 minute' WHERE id = $1`,
      [endpoint],
    );
    await pending('d1');
    expect((await repository.recordAttempt(dataSource, attempt('d1', 1, 'retryable', 5_000))).suspendedNow).toBe(true);
    expect(await health()).toMatchObject({ suspended: true, suspended_reason: 'no successful delivery for 5 days' });
  });

  it('holds, expires, and releases usage holds whose period has reset', async () => {
    await pending('d1');
    await pending('d2');
    await pending('d3', 'price_crossing', '2026-01-01T00:00:00Z');
    expect(await repository.hold(dataSource, 'd1', 'endpoint_paused')).toBe(true);
    expect(await row('d1')).toMatchObject({ status: 'held', held_reason: 'endpoint_paused' });
    expect(await repository.hold(dataSource, 'd1', 'endpoint_paused')).toBe(false);
    expect((await repository.loadForSend(dataSource, ['d3'])).get('d3')!.expired).toBe(true);
    expect(await repository.expire(dataSource, 'd3')).toBe(true);
    expect(await row('d3')).toMatchObject({ status: 'expired' });

    await repository.hold(dataSource, 'd2', 'usage_limit', new Date(Date.now() + 3_600_000));
    expect(await repository.releaseUsageHolds(dataSource, 100)).toEqual([]);
    await dataSource.query(`UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 second' WHERE delivery_id = 'd2'`);
    expect(await repository.releaseUsageHolds(dataSource, 100)).toEqual([
      { deliveryId: 'd2', webhookEndpointId: endpoint, attemptsMade: 0 },
    ]);
    expect(await row('d2')).toMatchObject({ status: 'pending', held_reason: null });
  });

  it('lists pending rows overdue past the grace, and takes delivered rows for charging once', async () => {
    await pending('d1');
    await pending('d2');
    await dataSource.query(`UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 minute' WHERE delivery_id = 'd1'`);
    expect(await repository.overdue(dataSource, 10_000, 100)).toEqual([{ deliveryId: 'd1', webhookEndpointId: endpoint, attemptsMade: 0 }]);
    await repository.recordAttempt(dataSource, attempt('d1', 1, 'delivered'));
    const taken = await repository.takeUncharged(dataSource, 100);
    expect(taken.map((t) => t.consumerId)).toEqual([consumer]);
    expect(await repository.takeUncharged(dataSource, 100)).toEqual([]);
  });
});
