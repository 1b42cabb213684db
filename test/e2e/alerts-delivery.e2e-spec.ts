import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { createHash, createHmac } from 'node:crypto';
import pg from 'pg';
import { nodeTime } from '#exchange';
import { address, NodeDataDir, wireFill, type WireFill } from '#testing';
import { createDispatcherApp } from '../../apps/dispatcher/src/dispatcher.bootstrap.js';
import { createIngestorApp } from '../../apps/ingestor/src/ingestor.bootstrap.js';
import { ApiHarness } from '../support/api-harness.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { fillPayload } from '../support/fill-payload.js';

// The whole chain as a consumer sees it: a rule made through the api, hl-node blocks written to the
// directory the ingestor tails, the outbox row committed with the facts, the dispatcher's POST to a
// receiver on loopback (allowed by the test-only setting), and the delivery log in Postgres.

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hmacHex = (secret: string, body: string) => createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
const hmacB64 = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('base64');

describe('alerts end to end: blocks -> ingestor -> outbox -> dispatcher -> receiver', () => {
  let api: ApiHarness;
  let ingestor: INestApplicationContext;
  let dispatcher: INestApplicationContext;
  let dir: NodeDataDir;
  let receiver: WebhookReceiver;
  let db: pg.Client;
  let nextBlock = 5_000;
  let nextTid = 900_000;

  beforeAll(async () => {
    dir = await NodeDataDir.create();
    api = await ApiHarness.start({
      // A state source that answers nothing: these tests are about fills, and no state update is wanted.
      env: {
        EXCHANGE_SOURCE: 'node',
        HL_NODE_DATA_DIR: dir.root,
        HL_INFO_URL: 'http://127.0.0.1:9/info',
        WEBHOOK_ALLOW_LOOPBACK: 'true',
        WEBHOOK_TIMEOUT_MS: '1000',
      },
    });
    ingestor = await createIngestorApp();
    dispatcher = await createDispatcherApp();
    receiver = await WebhookReceiver.start();
    db = new pg.Client({ connectionString: api.config.DATABASE_URL });
    await db.connect();
    // Rules name markets the service has seen (an earlier block's fills).
    await db.query(
      `INSERT INTO market_prices (coin, px, time, block_number) SELECT coin, 1, now() - interval '1 day', 1 FROM unnest($1::text[]) AS coin`,
      [['BTC', 'ETH', 'SOL']],
    );
  });

  afterAll(async () => {
    await dispatcher?.close();
    await ingestor?.close();
    await api?.close();
    await receiver?.close();
    await db?.end();
    await dir?.remove();
  });

  /** Appends one fills block to the hourly file of its time, as hl-node does. */
  async function writeFills(events: Array<[string, WireFill]>, timeMs = Date.now()): Promise<{ blockNumber: number; blockTime: string }> {
    const blockNumber = nextBlock++;
    const time = nodeTime(timeMs, 123_456);
    const d = new Date(timeMs);
    const file = `${d.toISOString().slice(0, 10).replaceAll('-', '')}/${d.getUTCHours()}`;
    await dir.append(
      'node_fills_by_block',
      file,
      `${JSON.stringify({ local_time: time, block_time: time, block_number: blockNumber, events })}\n`,
    );
    return { blockNumber, blockTime: time };
  }

  function fill(coin: string, px: string, sz: string, timeMs: number, extra: Partial<WireFill> = {}): WireFill {
    return wireFill({ coin, px, sz, side: 'B', time: timeMs, tid: nextTid++, ...extra });
  }

  async function subscriber(path: string, rule: Record<string, unknown>, options: { secretKey?: string; usageLimit?: number } = {}) {
    const { consumerId, token } = await api.createConsumer({ name: path, usageLimit: options.usageLimit });
    const endpoint = await api.http
      .post('/events/endpoints')
      .set('Authorization', `Bearer ${token}`)
      .send({ url: receiver.url(path), ...(options.secretKey ? { secretKey: options.secretKey } : {}) });
    expect(endpoint.status).toBe(201);
    const created = await api.http
      .post('/events')
      .set('Authorization', `Bearer ${token}`)
      .send({ ...rule, webhookEndpointId: endpoint.body.data.id });
    expect(created.status).toBe(201);
    return { consumerId, token, endpointId: endpoint.body.data.id as number, ruleId: created.body.data.id as number };
  }

  async function deliveryRow(deliveryId: string) {
    return (
      await db.query(`SELECT status, held_reason, attempt_count, usage_charged FROM webhook_deliveries WHERE delivery_id = $1`, [
        deliveryId,
      ])
    ).rows[0];
  }

  async function waitForRow(deliveryId: string, status: string, timeoutMs = 20_000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const row = await deliveryRow(deliveryId);
      if (row?.status === status) return row;
      if (Date.now() > until) throw new Error(`delivery ${deliveryId} is ${JSON.stringify(row)}, expected ${status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function attempts(deliveryId: string) {
    return (
      await db.query(`SELECT attempt, status_code, outcome, error FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`, [
        deliveryId,
      ])
    ).rows;
  }

  it('delivers a position_activity match with the exact envelope, headers and both signatures, and charges one usage token', async () => {
    const wallet = address(0xa11ce);
    const secret = 'receiver-secret-0123';
    const sub = await subscriber(
      '/exact',
      { eventType: 'position_activity', addresses: [wallet.toUpperCase().replace('0X', '0x')], filters: { coin: ['BTC'] } },
      { secretKey: secret },
    );
    const t = Date.now();
    const f1 = fill('BTC', '97000.5', '0.1', t - 2, { startPosition: '0', dir: 'Open Long' });
    const f2 = fill('BTC', '97001', '0.25', t - 1, { startPosition: '0.1', dir: 'Open Long', side: 'B' });
    const { blockNumber, blockTime } = await writeFills([
      [wallet, f1],
      [wallet, f2],
      [wallet, fill('ETH', '3000', '1', t)], // another market: filtered out
      [address(0xb0b), fill('BTC', '97000', '1', t)], // an untracked wallet
    ]);

    const [got] = await receiver.waitFor('/exact', 1);
    const deliveryId = sha256(`${sub.ruleId}|position_activity|${wallet}|BTC|${f1.tid},${f2.tid}`);
    expect(got!.body).toEqual({
      deliveryId,
      consumerId: sub.consumerId,
      webhookEndpointId: sub.endpointId,
      eventId: sub.ruleId,
      eventType: 'position_activity',
      occurredAt: new Date(f2.time).toISOString(),
      data: {
        address: wallet,
        coin: 'BTC',
        fillCount: 2,
        liquidationCount: 0,
        firstFillAt: f1.time,
        lastFillAt: f2.time,
        fills: [fillPayload(wallet, f1, { blockNumber, blockTime }), fillPayload(wallet, f2, { blockNumber, blockTime })],
      },
    });
    // The envelope's key order is the contract's.
    expect(Object.keys(JSON.parse(got!.raw))).toEqual([
      'deliveryId',
      'consumerId',
      'webhookEndpointId',
      'eventId',
      'eventType',
      'occurredAt',
      'data',
    ]);
    const h = got!.headers;
    expect(h['content-type']).toBe('application/json');
    expect(h['x-event-id']).toBe(String(sub.ruleId));
    expect(h['x-webhook-event']).toBe('position_activity');
    expect(h['x-webhook-delivery-id']).toBe(deliveryId);
    expect(h['x-webhook-signature']).toBe(`v1=${hmacHex(secret, got!.raw)}`);
    expect(h['webhook-id']).toBe(deliveryId);
    expect(h['webhook-signature']).toBe(
      `v1,${hmacB64(Buffer.from(secret, 'utf8'), `${deliveryId}.${h['webhook-timestamp']}.${got!.raw}`)}`,
    );
    expect(Math.abs(Number(h['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);

    await waitForRow(deliveryId, 'delivered');
    expect(await attempts(deliveryId)).toEqual([{ attempt: 1, status_code: 200, outcome: 'delivered', error: null }]);
    // Two management requests and one delivery: three usage tokens, once the charges are written.
    const until = Date.now() + 10_000;
    let used = 0;
    while (used !== 3 && Date.now() < until) {
      used = Number(
        (await db.query(`SELECT coalesce(sum(used), 0) AS used FROM usage WHERE consumer_id = $1`, [sub.consumerId])).rows[0].used,
      );
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(used).toBe(3);
    expect((await deliveryRow(deliveryId)).usage_charged).toBe(true);
    expect(receiver.on('/exact')).toHaveLength(1);
  });

  it('with the test-only loopback setting, takes plain http for a loopback receiver only', async () => {
    const { token } = await api.createConsumer({ name: 'http-check' });
    const create = (url: string) => api.http.post('/events/endpoints').set('Authorization', `Bearer ${token}`).send({ url });
    for (const url of ['http://93.184.216.34/hook', 'http://10.0.0.1/hook', 'http://hooks.example.com/hook']) {
      const res = await create(url);
      expect([url, res.status, res.body.errors]).toEqual([
        url,
        400,
        [{ field: 'url', message: 'url must use https (http is allowed only for a loopback receiver)' }],
      ]);
    }
    expect((await create('http://localhost:8080/hook')).status).toBe(201);
    expect((await create(receiver.url('/local'))).status).toBe(201);
  });

  it('retries a 502 with Retry-After and a timeout with the same deliveryId and bytes, then delivers', async () => {
    const wallet = address(0xc0ffee);
    const slow = await subscriber('/retry-after', { eventType: 'position_activity', addresses: [wallet] });
    const hang = await subscriber('/hang', { eventType: 'position_activity', addresses: [wallet] });
    // Retry-After is heard on any retryable status, not only 429 and 503.
    receiver.answer('/retry-after', { status: 502, headers: { 'Retry-After': '7' } }, { status: 200 });
    receiver.answer('/hang', 'hang', { status: 200 });
    const f = fill('SOL', '150.25', '3', Date.now());
    await writeFills([[wallet, f]]);

    const idSlow = sha256(`${slow.ruleId}|position_activity|${wallet}|SOL|${f.tid}`);
    const idHang = sha256(`${hang.ruleId}|position_activity|${wallet}|SOL|${f.tid}`);
    const [first, second] = await receiver.waitFor('/retry-after', 2, 30_000);
    expect(second!.raw).toBe(first!.raw);
    expect(second!.headers['webhook-id']).toBe(idSlow);
    expect(first!.body.deliveryId).toBe(idSlow);
    await waitForRow(idSlow, 'delivered');
    expect(await attempts(idSlow)).toEqual([
      { attempt: 1, status_code: 502, outcome: 'retryable', error: 'HTTP 502' },
      { attempt: 2, status_code: 200, outcome: 'delivered', error: null },
    ]);
    // Retry-After (7 s) was longer than the schedule's second wait (5 s +-20 %): it set the wait.
    const gap = (
      await db.query(
        `SELECT extract(epoch FROM (max(started_at) - min(started_at)))::float AS s FROM webhook_delivery_attempts WHERE delivery_id = $1`,
        [idSlow],
      )
    ).rows[0].s;
    expect(gap).toBeGreaterThanOrEqual(7);

    const hung = await receiver.waitFor('/hang', 2, 30_000);
    expect(hung[1]!.raw).toBe(hung[0]!.raw);
    await waitForRow(idHang, 'delivered');
    const tried = await attempts(idHang);
    expect(tried.map((a) => [a.attempt, a.status_code, a.outcome])).toEqual([
      [1, null, 'retryable'],
      [2, 200, 'delivered'],
    ]);
    expect(tried[0].error).toMatch(/timeout/);
  }, 60_000);

  it('a 410 fails the delivery and suspends the endpoint; what comes next is held and delivered on resume', async () => {
    const wallet = address(0x410);
    const sub = await subscriber('/gone', { eventType: 'position_activity', addresses: [wallet] });
    receiver.answer('/gone', { status: 410 }, { status: 200 });
    const f1 = fill('BTC', '1', '1', Date.now());
    await writeFills([[wallet, f1]]);
    const first = sha256(`${sub.ruleId}|position_activity|${wallet}|BTC|${f1.tid}`);
    await waitForRow(first, 'failed');
    expect(await attempts(first)).toEqual([{ attempt: 1, status_code: 410, outcome: 'gone', error: 'HTTP 410' }]);
    const endpoint = await api.get(`/events/endpoints/${sub.endpointId}`, sub.token);
    expect(endpoint.body.data).toMatchObject({ status: 'suspended', suspendedReason: 'the receiver answered 410 Gone' });

    const f2 = fill('BTC', '2', '1', Date.now());
    await writeFills([[wallet, f2]]);
    const second = sha256(`${sub.ruleId}|position_activity|${wallet}|BTC|${f2.tid}`);
    expect(await waitForRow(second, 'held')).toMatchObject({ held_reason: 'endpoint_suspended', attempt_count: 0 });
    expect(receiver.on('/gone')).toHaveLength(1);

    const resumed = await api.http.post(`/events/endpoints/${sub.endpointId}/resume`).set('Authorization', `Bearer ${sub.token}`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.status).toBe('active');
    const got = await receiver.waitFor('/gone', 2);
    expect(got[1]!.body.deliveryId).toBe(second);
    await waitForRow(second, 'delivered');
  });

  it('a paused endpoint holds its deliveries and sends them on resume', async () => {
    const wallet = address(0x9a05e);
    const sub = await subscriber('/paused', { eventType: 'position_activity', addresses: [wallet] });
    const paused = await api.http.post(`/events/endpoints/${sub.endpointId}/pause`).set('Authorization', `Bearer ${sub.token}`);
    expect(paused.body.data.status).toBe('paused');
    const f = fill('ETH', '3000.1', '2', Date.now());
    await writeFills([[wallet, f]]);
    const id = sha256(`${sub.ruleId}|position_activity|${wallet}|ETH|${f.tid}`);
    expect(await waitForRow(id, 'held')).toMatchObject({ held_reason: 'endpoint_paused' });
    expect(receiver.on('/paused')).toHaveLength(0);
    await api.http.post(`/events/endpoints/${sub.endpointId}/resume`).set('Authorization', `Bearer ${sub.token}`);
    const [got] = await receiver.waitFor('/paused', 1);
    expect(got!.body.deliveryId).toBe(id);
    await waitForRow(id, 'delivered');
  });

  it('two consumers tracking one wallet each get their own delivery and never see the other', async () => {
    const wallet = address(0x7770);
    const a = await subscriber('/consumer-a', { eventType: 'position_activity', addresses: [wallet] });
    const b = await subscriber('/consumer-b', { eventType: 'position_activity', addresses: [wallet] });
    const f = fill('BTC', '50000', '0.01', Date.now());
    await writeFills([[wallet, f]]);
    const [toA] = await receiver.waitFor('/consumer-a', 1);
    const [toB] = await receiver.waitFor('/consumer-b', 1);
    expect([toA!.body.consumerId, toA!.body.eventId, toA!.body.webhookEndpointId]).toEqual([a.consumerId, a.ruleId, a.endpointId]);
    expect([toB!.body.consumerId, toB!.body.eventId, toB!.body.webhookEndpointId]).toEqual([b.consumerId, b.ruleId, b.endpointId]);
    expect(toA!.body.deliveryId).not.toBe(toB!.body.deliveryId);
    await waitForRow(toA!.body.deliveryId as string, 'delivered');
    const logA = await api.get(`/events/endpoints/${a.endpointId}/deliveries`, a.token);
    expect(logA.body.data.deliveries.map((d: { deliveryId: string }) => d.deliveryId)).toEqual([toA!.body.deliveryId]);
    expect((await api.get(`/events/endpoints/${a.endpointId}/deliveries`, b.token)).status).toBe(404);
    expect((await api.get(`/events/${a.ruleId}`, b.token)).status).toBe(404);
  });

  it('a consumer out of usage tokens has the rest held until its period resets, never dropped', async () => {
    const wallet = address(0x5e11);
    // Four tokens: two go to creating the endpoint and the rule, two to deliveries; the third waits.
    const sub = await subscriber('/quota', { eventType: 'position_activity', addresses: [wallet] }, { usageLimit: 4 });
    const t = Date.now();
    const fills = ['BTC', 'ETH', 'SOL'].map((coin, i) => fill(coin, '10', '1', t + i));
    await writeFills(fills.map((f) => [wallet, f]));
    const ids = fills.map((f) => sha256(`${sub.ruleId}|position_activity|${wallet}|${f.coin}|${f.tid}`));
    await receiver.waitFor('/quota', 2);
    const until = Date.now() + 15_000;
    const now = new Date();
    const periodEnd = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    let rows: Array<{ status: string; held_reason: string | null; next_attempt_at: Date }> = [];
    while (Date.now() < until) {
      rows = (
        await db.query(`SELECT status, held_reason, next_attempt_at FROM webhook_deliveries WHERE delivery_id = ANY($1) ORDER BY status`, [
          ids,
        ])
      ).rows;
      if (rows.filter((r) => r.status === 'delivered').length === 2 && rows.some((r) => r.status === 'held')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows.map((r) => [r.status, r.held_reason])).toEqual([
      ['delivered', null],
      ['delivered', null],
      ['held', 'usage_limit'],
    ]);
    // Held until the plan's monthly period resets.
    expect(rows[2]!.next_attempt_at.getTime()).toBe(periodEnd);
    expect(receiver.on('/quota')).toHaveLength(2);
  });
});
