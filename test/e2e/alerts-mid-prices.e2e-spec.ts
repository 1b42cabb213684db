import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { address, FakeHyperliquidServer } from '#testing';
import { createDispatcherApp } from '../../apps/dispatcher/src/dispatcher.bootstrap.js';
import { createIngestorApp } from '../../apps/ingestor/src/ingestor.bootstrap.js';
import { ApiHarness } from '../support/api-harness.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

// With the public-API feed (EXCHANGE_SOURCE=hyperliquid) a price rule's ticks are the markets' mids:
// the ingestor reads `allMids` every second, and a mid that crosses a threshold strictly is one
// delivery, through the outbox and the dispatcher to the receiver.

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('price_crossing on the public-API feed: allMids ticks', () => {
  let api: ApiHarness;
  let hyperliquid: FakeHyperliquidServer;
  let ingestor: INestApplicationContext;
  let dispatcher: INestApplicationContext;
  let receiver: WebhookReceiver;
  let db: pg.Client;

  beforeAll(async () => {
    hyperliquid = await FakeHyperliquidServer.start();
    hyperliquid.mids = { BTC: '99000', ETH: '3000', '@107': '1' };
    api = await ApiHarness.start({
      env: {
        EXCHANGE_SOURCE: 'hyperliquid',
        HL_INFO_URL: hyperliquid.infoUrl,
        HL_WS_URL: hyperliquid.wsUrl,
        HL_TRACKED_ADDRESSES: address(1),
        WEBHOOK_ALLOW_LOOPBACK: 'true',
      },
    });
    receiver = await WebhookReceiver.start();
    db = new pg.Client({ connectionString: api.config.DATABASE_URL });
    await db.connect();
    // A price rule needs a market the service has seen trade (a tracked wallet's fill stored its last price).
    await db.query(`INSERT INTO market_prices (coin, px, time, block_number) VALUES ('BTC', 98000, now() - interval '1 hour', 1)`);
  });

  afterAll(async () => {
    await dispatcher?.close();
    await ingestor?.close();
    await api?.close();
    await receiver?.close();
    await hyperliquid?.close();
    await db?.end();
  });

  async function midsRead(count: number): Promise<void> {
    const until = Date.now() + 15_000;
    while (hyperliquid.infoRequests.filter((r) => r['type'] === 'allMids').length < count) {
      if (Date.now() > until) throw new Error(`allMids read fewer than ${count} times`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('delivers one crossing per strict move past the threshold after a baseline answer; touching fires nothing', async () => {
    const { token } = await api.createConsumer({ name: 'mids' });
    const endpoint = await api.http
      .post('/events/endpoints')
      .set('Authorization', `Bearer ${token}`)
      .send({ url: receiver.url('/mids') });
    const rule = await api.http
      .post('/events')
      .set('Authorization', `Bearer ${token}`)
      .send({
        eventType: 'price_crossing',
        webhookEndpointId: endpoint.body.data.id,
        filters: { market: 'BTC', threshold: '100000', direction: 'both' },
      });
    expect(rule.status).toBe(201);
    const ruleId = rule.body.data.id as number;

    ingestor = await createIngestorApp();
    dispatcher = await createDispatcherApp();
    const reads = () => hyperliquid.infoRequests.filter((r) => r['type'] === 'allMids').length;
    // The first answer is the baseline; then 100000 (touching), 100000.5 (above), 99999 (below).
    await midsRead(reads() + 1);
    for (const btc of ['100000', '100000.5', '99999']) {
      hyperliquid.mids = { BTC: btc, ETH: '3001', '@107': '2' };
      await midsRead(reads() + 2);
    }
    const received = await receiver.waitFor('/mids', 2);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.on('/mids')).toHaveLength(2);
    const datas = received.map((r) => r.body.data as Record<string, unknown>);
    expect(datas.map((d) => [d.market, d.threshold, d.direction, d.previousPrice, d.triggerPrice])).toEqual([
      ['BTC', '100000', 'above', '100000', '100000.5'],
      ['BTC', '100000', 'below', '100000.5', '99999'],
    ]);
    for (const r of received) {
      const d = r.body.data as { eventTime: number };
      expect(r.body).toMatchObject({
        eventId: ruleId,
        eventType: 'price_crossing',
        deliveryId: sha256(`${ruleId}|price_crossing|BTC|0|${d.eventTime}`),
      });
    }
    const rows = await db.query(`SELECT status FROM webhook_deliveries WHERE rule_id = $1`, [ruleId]);
    expect(rows.rows).toEqual([{ status: 'delivered' }, { status: 'delivered' }]);
  });
});
