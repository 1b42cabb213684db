import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { DatabaseModule } from '#database';
import { RuntimeModule } from '#runtime';
import { resetDatabase, resetRedis, useTestEnvironment } from '#testing';
import { AlertsDeliveryModule } from './alerts-delivery.module.js';
import { DeliveryProcessor } from './delivery.processor.js';

// The dispatcher's processor as the app wires it, with the test-only loopback setting off: a delivery
// to an endpoint whose address is not public is refused before any connection, and the refusal is
// recorded as a failed attempt that names the reason (a literal address fails for good; a host name,
// whose answer can change, is tried again later).

@Module({ imports: [RuntimeModule.forApp('dispatcher'), DatabaseModule, AlertsDeliveryModule] })
class ProcessorTestModule {}

describe('DeliveryProcessor: SSRF refusals are recorded attempts; a withdrawn rule sends nothing', () => {
  const config = useTestEnvironment({ WEBHOOK_ALLOW_LOOPBACK: 'false' });
  let app: INestApplicationContext;
  let dataSource: DataSource;
  let server: Server;
  let connections = 0;
  let consumer: number;

  beforeAll(async () => {
    await resetDatabase(config.DATABASE_URL);
    await resetRedis(config.REDIS_URL, config.REDIS_PREFIX);
    server = createServer((_req, res) => res.writeHead(200).end());
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    app = await NestFactory.createApplicationContext(ProcessorTestModule, { logger: false });
    dataSource = app.get(DataSource);
    [{ id: consumer }] = await dataSource.query(`INSERT INTO consumers (name, plan) VALUES ('alice', 'tier1') RETURNING id`);
  });
  afterAll(async () => {
    await app?.close();
    server?.closeAllConnections();
    server?.close();
  });

  it('refuses each private target, records the attempt with its reason, and opens no connection', async () => {
    const port = (server.address() as AddressInfo).port;
    const cases: Array<[string, string, string, 'failed' | 'pending']> = [
      [`https://127.0.0.1:${port}/hook`, 'permanent', 'refused: loopback address 127.0.0.1', 'failed'],
      [`https://2130706433:${port}/hook`, 'permanent', 'refused: loopback address 127.0.0.1', 'failed'],
      [`https://0x7f000001:${port}/hook`, 'permanent', 'refused: loopback address 127.0.0.1', 'failed'],
      [`https://[::ffff:127.0.0.1]:${port}/hook`, 'permanent', 'refused: loopback address 127.0.0.1', 'failed'],
      ['https://169.254.169.254/latest/meta-data/', 'permanent', 'refused: link-local address 169.254.169.254', 'failed'],
      ['https://10.1.2.3/hook', 'permanent', 'refused: private address 10.1.2.3', 'failed'],
      ['https://100.64.0.1/hook', 'permanent', 'refused: carrier-grade NAT address 100.64.0.1', 'failed'],
      ['https://224.0.0.1/hook', 'permanent', 'refused: multicast address 224.0.0.1', 'failed'],
      [`https://[::1]:${port}/hook`, 'permanent', 'refused: loopback address ::1', 'failed'],
      ['https://[fd00::1]/hook', 'permanent', 'refused: unique local IPv6 address fd00::1', 'failed'],
      [`http://127.0.0.1:${port}/hook`, 'permanent', 'refused: http is not allowed, only https', 'failed'],
      // localhost is a name: the system resolver answers 127.0.0.1, refused at connect time.
      [`https://localhost:${port}/hook`, 'retryable', 'refused: localhost resolves to loopback address 127.0.0.1', 'pending'],
    ];
    const processor = app.get(DeliveryProcessor);
    for (const [i, [url]] of cases.entries()) {
      // Padded so the rows read back in the table's order.
      const deliveryId = `d${String(i).padStart(2, '0')}`;
      const [{ id: endpoint }] = await dataSource.query(
        `INSERT INTO webhook_endpoints (consumer_id, url, secret_key) VALUES ($1, $2, 's3cret-s3cret') RETURNING id`,
        [consumer, url],
      );
      const [{ id: rule }] = await dataSource.query(
        `INSERT INTO alert_rules (consumer_id, webhook_endpoint_id, event_type) VALUES ($1, $2, 'ledger_update') RETURNING id`,
        [consumer, endpoint],
      );
      await dataSource.query(
        `INSERT INTO webhook_deliveries (delivery_id, consumer_id, webhook_endpoint_id, rule_id, event_type, occurred_at, payload, status)
         VALUES ($1, $2, $3, $4, 'ledger_update', now(), '{"amount":"1.5"}', 'pending')`,
        [deliveryId, consumer, endpoint, rule],
      );
      expect(await processor.process({ deliveryId, webhookEndpointId: endpoint })).toBe('done');
    }
    const rows = await dataSource.query(
      `SELECT e.url, a.attempt, a.status_code, a.outcome, a.error, d.status
       FROM webhook_delivery_attempts a JOIN webhook_deliveries d USING (delivery_id) JOIN webhook_endpoints e ON e.id = d.webhook_endpoint_id
       ORDER BY d.delivery_id`,
    );
    expect(rows).toEqual(cases.map(([url, outcome, error, status]) => ({ url, attempt: 1, status_code: null, outcome, error, status })));
    expect(connections).toBe(0);
    // A refused attempt delivered nothing, so it spent no usage token.
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE usage_charged`)).toEqual([{ n: 0 }]);
  });

  it('cancels, without sending or charging, a delivery whose rule was deleted or paused after the row was written', async () => {
    // A batch matched with the rule index of just before the change writes such rows after the rule's own cancel ran.
    const processor = app.get(DeliveryProcessor);
    const [{ id: endpoint }] = await dataSource.query(
      `INSERT INTO webhook_endpoints (consumer_id, url) VALUES ($1, 'https://93.184.216.34/hook') RETURNING id`,
      [consumer],
    );
    const rules: number[] = [];
    for (let i = 0; i < 2; i++)
      rules.push(
        (
          await dataSource.query(
            `INSERT INTO alert_rules (consumer_id, webhook_endpoint_id, event_type) VALUES ($1, $2, 'ledger_update') RETURNING id`,
            [consumer, endpoint],
          )
        )[0].id,
      );
    await dataSource.query(`UPDATE alert_rules SET paused = true WHERE id = $1`, [rules[0]]);
    await dataSource.query(`DELETE FROM alert_rules WHERE id = $1`, [rules[1]]);
    for (const [i, rule] of rules.entries())
      await dataSource.query(
        `INSERT INTO webhook_deliveries (delivery_id, consumer_id, webhook_endpoint_id, rule_id, event_type, occurred_at, payload, status, attempt_count)
         VALUES ($1, $2, $3, $4, 'ledger_update', now(), '{"amount":"2"}', 'pending', $5)`,
        [`cancel-${i}`, consumer, endpoint, rule, i],
      );
    for (const i of [0, 1]) expect(await processor.process({ deliveryId: `cancel-${i}`, webhookEndpointId: endpoint })).toBe('done');
    expect(
      await dataSource.query(
        `SELECT delivery_id, status, attempt_count, last_error, usage_charged FROM webhook_deliveries WHERE delivery_id LIKE 'cancel-%' ORDER BY delivery_id`,
      ),
    ).toEqual([
      {
        delivery_id: 'cancel-0',
        status: 'cancelled',
        attempt_count: 0,
        last_error: 'cancelled: the rule was deleted or paused',
        usage_charged: false,
      },
      {
        delivery_id: 'cancel-1',
        status: 'cancelled',
        attempt_count: 1,
        last_error: 'cancelled: the rule was deleted or paused',
        usage_charged: false,
      },
    ]);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM webhook_delivery_attempts WHERE delivery_id LIKE 'cancel-%'`)).toEqual([
      { n: 0 },
    ]);
  });
});
