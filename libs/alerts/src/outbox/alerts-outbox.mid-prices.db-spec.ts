import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { ExchangeFactsWriter, MidPricesRecorder, openMarketWriteContext } from '#market';
import { resetDatabase, resetRedis, useTestEnvironment } from '#testing';
import { AlertRulesRepository } from '../admin/rules/alert-rules.repository.js';
import { deliveryJobId } from '../queue/delivery-queue.constants.js';
import { DeliveryQueue } from '../queue/delivery.queue.js';
import { AlertsOutboxStep } from './alerts-outbox.step.js';
import { DeliveryOutboxRepository } from './delivery-outbox.repository.js';
import { PriceMarketsRepository } from './price-markets.repository.js';
import { RuleIndexCache } from './rule-index.cache.js';

// The public-API feed's price ticks on a real database and queue, through the facts writer with the
// outbox step registered: each allMids answer against the previous one, crossings stored and enqueued,
// and a write that fails leaves the baseline where the last stored answer put it.

const sha = (ruleId: number, identity: string) => createHash('sha256').update(`${ruleId}|${identity}`).digest('hex');

describe("the alert outbox on the public-API feed's mid ticks", () => {
  const config = useTestEnvironment();
  let dataSource: DataSource;
  let context: INestApplicationContext;
  let queue: DeliveryQueue;
  let midPrices: MidPricesRecorder;
  let ruleId: number;
  let t0: number;
  const rules = new AlertRulesRepository();

  beforeAll(async () => {
    await resetDatabase(config.DATABASE_URL);
    await resetRedis(config.REDIS_URL, config.REDIS_PREFIX);
    dataSource = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
    context = await openMarketWriteContext(dataSource);
    const facts = context.get(ExchangeFactsWriter);
    queue = new DeliveryQueue(config);
    new AlertsOutboxStep(
      facts,
      new RuleIndexCache(rules),
      new DeliveryOutboxRepository(),
      queue,
      new PriceMarketsRepository(),
    ).onModuleInit();
    midPrices = new MidPricesRecorder(facts);
    const [{ id: consumer }] = await dataSource.query(`INSERT INTO consumers (name, plan) VALUES ('alice', 'tier1') RETURNING id`);
    const [{ id: endpoint }] = await dataSource.query(
      `INSERT INTO webhook_endpoints (consumer_id, url) VALUES ($1, 'https://example.com/h') RETURNING id`,
      [consumer],
    );
    const created = await dataSource.transaction((q) =>
      rules.create(q, consumer, {
        eventType: 'price_crossing',
        webhookEndpointId: endpoint,
        addresses: [],
        filters: { market: 'ETH', threshold: '3000.5', direction: 'both' },
      }),
    );
    ruleId = created.id;
    t0 = Date.parse(created.createdAt) + 1_000;
  });
  afterAll(async () => {
    await queue?.onApplicationShutdown();
    await context?.close();
    await dataSource?.destroy();
  });

  /** Records one answer; how many deliveries it stored. */
  const record = async (mids: Record<string, string>, timeMs: number): Promise<number> => {
    const before = await deliveries();
    await midPrices.record(mids, timeMs);
    return (await deliveries()) - before;
  };
  const deliveries = async (): Promise<number> => (await dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries`))[0].n;

  const stored = async () =>
    (await dataSource.query(`SELECT delivery_id, payload::jsonb AS data FROM webhook_deliveries ORDER BY occurred_at`)) as Array<{
      delivery_id: string;
      data: Record<string, unknown>;
    }>;

  it('takes the first answer as the baseline, then stores and enqueues each crossing once', async () => {
    expect(await record({ ETH: '2999', BTC: '90000' }, t0)).toBe(0);
    expect(await record({ ETH: '2999', BTC: '91000' }, t0 + 1_000)).toBe(0);
    expect(await record({ ETH: '3000.5', BTC: '91000' }, t0 + 2_000)).toBe(0); // touching
    expect(await record({ ETH: '3001', BTC: '91000' }, t0 + 3_000)).toBe(1);
    const id = sha(ruleId, `price_crossing|ETH|0|${t0 + 3_000}`);
    expect(await stored()).toEqual([
      {
        delivery_id: id,
        data: {
          market: 'ETH',
          threshold: '3000.5',
          direction: 'above',
          previousPrice: '3000.5',
          triggerPrice: '3001',
          eventTime: t0 + 3_000,
        },
      },
    ]);
    expect((await queue.queue.getJob(deliveryJobId(id, 0)))?.data).toEqual({ deliveryId: id, webhookEndpointId: expect.any(Number) });
    // The markets whose mid ticked are known as priced markets (a price rule's market is checked against them).
    expect(await dataSource.query(`SELECT coin FROM alert_price_markets ORDER BY coin`)).toEqual([{ coin: 'BTC' }, { coin: 'ETH' }]);
    // It expires an hour after the crossing's own time, not an hour after the row was written.
    expect(
      await dataSource.query(
        `SELECT (extract(epoch FROM occurred_at) * 1000)::bigint::text AS occurred_ms, (extract(epoch FROM expires_at) * 1000)::bigint::text AS expires_ms
         FROM webhook_deliveries WHERE delivery_id = $1`,
        [id],
      ),
    ).toEqual([{ occurred_ms: String(t0 + 3_000), expires_ms: String(t0 + 3_000 + 3_600_000) }]);
  });

  it('leaves the baseline at the last stored answer when a write fails', async () => {
    await dataSource.query(`ALTER TABLE webhook_deliveries ADD CONSTRAINT refuse_all CHECK (false) NOT VALID`);
    await expect(midPrices.record({ ETH: '2990' }, t0 + 4_000)).rejects.toThrow(/refuse_all/);
    await dataSource.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT refuse_all`);
    // Compared with 3001 (the last stored answer), not with the failed 2990: a crossing below, once.
    expect(await record({ ETH: '2980' }, t0 + 5_000)).toBe(1);
    expect((await stored()).map((r) => [r.data.direction, r.data.previousPrice, r.data.triggerPrice])).toEqual([
      ['above', '3000.5', '3001'],
      ['below', '3001', '2980'],
    ]);
  });
});
