import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { ExchangeFactsWriter, MarketStateWriter, openMarketWriteContext } from '#market';
import { address, exchangeState, feed, fillsBlock, resetDatabase, resetRedis, useTestEnvironment, walletState, wireFill } from '#testing';
import { AlertRulesRepository } from '../admin/rules/alert-rules.repository.js';
import { deliveryJobId } from '../queue/delivery-queue.constants.js';
import { DeliveryQueue } from '../queue/delivery.queue.js';
import { AlertsOutboxStep } from './alerts-outbox.step.js';
import { DeliveryOutboxRepository } from './delivery-outbox.repository.js';
import { PriceMarketsRepository } from './price-markets.repository.js';
import { RuleIndexCache } from './rule-index.cache.js';
import { StateUpdatedOutboxStep } from './state-updated-outbox.step.js';

// The outbox steps on the real writers: delivery rows commit with the facts (or the state update) that
// matched, a replay of the same blocks adds none, and each row's job is in BullMQ after the commit.

const sha = (ruleId: number, identity: string) => createHash('sha256').update(`${ruleId}|${identity}`).digest('hex');

describe('alert outbox steps', () => {
  const config = useTestEnvironment();
  let dataSource: DataSource;
  let context: INestApplicationContext;
  let queue: DeliveryQueue;
  let facts: ExchangeFactsWriter;
  let state: MarketStateWriter;
  let endpoint: number;
  const rules = new AlertRulesRepository();

  beforeAll(async () => {
    await resetDatabase(config.DATABASE_URL);
    await resetRedis(config.REDIS_URL, config.REDIS_PREFIX);
    dataSource = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
    context = await openMarketWriteContext(dataSource);
    facts = context.get(ExchangeFactsWriter);
    state = context.get(MarketStateWriter);
    queue = new DeliveryQueue(config);
    const cache = new RuleIndexCache(rules);
    new AlertsOutboxStep(facts, cache, new DeliveryOutboxRepository(), queue, new PriceMarketsRepository()).onModuleInit();
    new StateUpdatedOutboxStep(state, cache, new DeliveryOutboxRepository(), queue).onModuleInit();
    const [{ id: consumer }] = await dataSource.query(`INSERT INTO consumers (name, plan) VALUES ('alice', 'tier1') RETURNING id`);
    [{ id: endpoint }] = await dataSource.query(
      `INSERT INTO webhook_endpoints (consumer_id, url) VALUES ($1, 'https://example.com/h') RETURNING id`,
      [consumer],
    );
  });
  afterAll(async () => {
    await queue?.onApplicationShutdown();
    await context?.close();
    await dataSource?.destroy();
  });

  it('writes matched deliveries with the facts, once, and enqueues them after the commit', async () => {
    const created = await dataSource.transaction((q) =>
      rules.create(q, 1, { eventType: 'position_activity', webhookEndpointId: endpoint, addresses: [address(1)], filters: {} }),
    );
    const t = Date.parse(created.createdAt) + 1_000;
    const blocks = [
      fillsBlock(10, t, [
        [address(1), wireFill({ coin: 'BTC', px: '100', sz: '1', side: 'B', time: t, tid: 5 })],
        [address(2), wireFill({ coin: 'BTC', px: '100', sz: '1', side: 'A', time: t, tid: 5 })],
      ]),
    ];
    await facts.writeBlocks(feed(blocks), 'simulator');
    const id = sha(created.id, `position_activity|${address(1)}|BTC|5`);
    const rows = await dataSource.query(
      `SELECT delivery_id, rule_id, webhook_endpoint_id, event_type, status, (payload::jsonb)->>'fillCount' AS fills FROM webhook_deliveries`,
    );
    expect(rows).toEqual([
      {
        delivery_id: id,
        rule_id: created.id,
        webhook_endpoint_id: endpoint,
        event_type: 'position_activity',
        status: 'pending',
        fills: '1',
      },
    ]);
    const job = await queue.queue.getJob(deliveryJobId(id, 0));
    expect(job?.data).toEqual({ deliveryId: id, webhookEndpointId: endpoint });

    // The same block again (a replay under a fresh checkpoint): no second row.
    await dataSource.query(`DELETE FROM feed_checkpoints`);
    await facts.writeBlocks(feed(blocks), 'simulator');
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries`)).toEqual([{ n: 1 }]);
  });

  it('writes one state_updated delivery per applied state update', async () => {
    const created = await dataSource.transaction((q) =>
      rules.create(q, 1, { eventType: 'state_updated', webhookEndpointId: endpoint, addresses: [], filters: {} }),
    );
    const t = Date.parse(created.createdAt) + 60_000;
    await state.apply(exchangeState(7, t, [walletState(address(3))]));
    await state.apply(exchangeState(7, t, [walletState(address(3))]));
    const rows = await dataSource.query(`SELECT delivery_id, payload FROM webhook_deliveries WHERE event_type = 'state_updated'`);
    expect(rows).toEqual([{ delivery_id: sha(created.id, 'state_updated|7'), payload: JSON.stringify({ height: 7, stateTime: t }) }]);
  });

  it('gives price crossings and large orders an hour to be delivered, and other types no expiry', async () => {
    const outbox = new DeliveryOutboxRepository();
    const base = { ruleId: 1, consumerId: 1, webhookEndpointId: endpoint, occurredAtMs: Date.now(), data: { a: '1' } };
    await outbox.insert(dataSource, [
      { ...base, deliveryId: 'e'.repeat(64), eventType: 'price_crossing' },
      { ...base, deliveryId: 'f'.repeat(64), eventType: 'ledger_update' },
    ]);
    const rows = await dataSource.query(
      `SELECT event_type, extract(epoch FROM expires_at - created_at)::int AS seconds FROM webhook_deliveries WHERE delivery_id IN ($1, $2) ORDER BY event_type`,
      ['e'.repeat(64), 'f'.repeat(64)],
    );
    expect(rows).toEqual([
      { event_type: 'ledger_update', seconds: null },
      { event_type: 'price_crossing', seconds: 3600 },
    ]);
  });
});
