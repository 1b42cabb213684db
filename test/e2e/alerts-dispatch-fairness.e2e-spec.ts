import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { DeliveryQueue } from '#alerts';
import { createDispatcherApp } from '../../apps/dispatcher/src/dispatcher.bootstrap.js';
import { ApiHarness } from '../support/api-harness.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

// One consumer's receivers that never answer must not take every dispatcher worker: with 4 workers
// and a cap of 2 requests in flight per consumer, a slow consumer holds 2 and another consumer's
// deliveries go through the other 2. Without the cap the slow consumer's jobs would fill all 4 workers
// for the whole request time limit (60 s here), far past the wait below.

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('dispatcher: requests in flight per consumer', () => {
  let api: ApiHarness;
  let dispatcher: INestApplicationContext;
  let receiver: WebhookReceiver;
  let db: pg.Client;

  beforeAll(async () => {
    api = await ApiHarness.start({
      env: {
        WEBHOOK_ALLOW_LOOPBACK: 'true',
        WEBHOOK_TIMEOUT_MS: '60000',
        DISPATCHER_CONCURRENCY: '4',
        DISPATCHER_IN_FLIGHT_PER_CONSUMER: '2',
      },
    });
    receiver = await WebhookReceiver.start();
    db = new pg.Client({ connectionString: api.config.DATABASE_URL });
    await db.connect();
  });

  afterAll(async () => {
    // The receiver first: its hanging answers break off, so the dispatcher's requests end and it can stop.
    await receiver?.close();
    await dispatcher?.close();
    await api?.close();
    await db?.end();
  });

  /** A consumer with one ledger rule per path; returns what its deliveries need. */
  async function consumerWith(name: string, paths: string[]) {
    const { consumerId, token } = await api.createConsumer({ name });
    const endpoints: Array<{ endpointId: number; ruleId: number }> = [];
    for (const path of paths) {
      const endpoint = await api.http
        .post('/events/endpoints')
        .set('Authorization', `Bearer ${token}`)
        .send({ url: receiver.url(path) });
      const rule = await api.http
        .post('/events')
        .set('Authorization', `Bearer ${token}`)
        .send({ eventType: 'ledger_update', webhookEndpointId: endpoint.body.data.id });
      expect([endpoint.status, rule.status]).toEqual([201, 201]);
      endpoints.push({ endpointId: endpoint.body.data.id, ruleId: rule.body.data.id });
    }
    return { consumerId, endpoints };
  }

  /** `perEndpoint` pending deliveries on each of the consumer's endpoints, enqueued; their ids. */
  async function deliveries(owner: Awaited<ReturnType<typeof consumerWith>>, perEndpoint: number): Promise<string[]> {
    const ids: string[] = [];
    for (const { endpointId, ruleId } of owner.endpoints) {
      for (let i = 0; i < perEndpoint; i++) {
        const id = sha256(`fairness|${endpointId}|${i}`);
        await db.query(
          `INSERT INTO webhook_deliveries (delivery_id, consumer_id, webhook_endpoint_id, rule_id, event_type, occurred_at, payload, status)
           VALUES ($1, $2, $3, $4, 'ledger_update', now(), $5, 'pending')`,
          [id, owner.consumerId, endpointId, ruleId, JSON.stringify({ n: i })],
        );
        ids.push(id);
      }
    }
    await api.app.get(DeliveryQueue).enqueue(
      ids.map((deliveryId, i) => ({
        deliveryId,
        webhookEndpointId: owner.endpoints[Math.floor(i / perEndpoint)]!.endpointId,
        attemptsMade: 0,
      })),
    );
    return ids;
  }

  it("delivers another consumer's deliveries while one consumer's receivers hang, and holds the slow one to its cap", async () => {
    const slowPaths = ['/slow-1', '/slow-2', '/slow-3'];
    for (const path of slowPaths) receiver.answer(path, 'hang');
    const slow = await consumerWith('slow', slowPaths);
    const fast = await consumerWith('fast', ['/fast']);
    dispatcher = await createDispatcherApp();

    const slowIds = await deliveries(slow, 4);
    // The slow consumer's first two requests are in flight (and will not come back) before the others are queued.
    const hung = () => receiver.received.filter((r) => slowPaths.includes(r.path)).length;
    const until = Date.now() + 20_000;
    while (hung() < 2) {
      if (Date.now() > until) throw new Error(`the slow receivers got ${hung()} requests`);
      await new Promise((r) => setTimeout(r, 25));
    }
    const fastIds = await deliveries(fast, 5);

    await receiver.waitFor('/fast', 5, 20_000);
    const status = async (ids: string[]) =>
      (
        await db.query(
          `SELECT status, attempt_count, count(*)::int AS n FROM webhook_deliveries WHERE delivery_id = ANY($1) GROUP BY 1, 2 ORDER BY 1, 2`,
          [ids],
        )
      ).rows;
    const deadline = Date.now() + 20_000;
    while ((await status(fastIds))[0]?.n !== 5 || (await status(fastIds))[0]?.status !== 'delivered') {
      if (Date.now() > deadline) throw new Error(`fast deliveries: ${JSON.stringify(await status(fastIds))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await status(fastIds)).toEqual([{ status: 'delivered', attempt_count: 1, n: 5 }]);
    expect(
      receiver
        .on('/fast')
        .map((r) => r.body.deliveryId)
        .sort(),
    ).toEqual([...fastIds].sort());
    // The slow consumer never had more than its 2 requests out; the rest of its deliveries wait, untried.
    expect(hung()).toBe(2);
    expect(await status(slowIds)).toEqual([{ status: 'pending', attempt_count: 0, n: 12 }]);
  }, 90_000);
});
