import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { A, AlertsManagementFixture, H, type Consumer } from '../support/alerts-management.fixture.js';
import type { ApiHarness } from '../support/api-harness.js';

// What happens around a rule and its deliveries, through the `/events` api: market names checked and
// spelled the stored way, the plan's caps on exchange-wide rules and on addresses, the deliveries a
// deleted or paused rule still owed cancelled, an expired delivery not sent again, and a paused endpoint
// left paused by an edit. Rows are read back from Postgres.

describe('alert management (/events): markets, plan caps, cancellation, expiry', () => {
  let fixture: AlertsManagementFixture;
  let api: ApiHarness;
  let alice: Consumer;
  const as = (who: { token: string }) => fixture.as(who);
  const rows = (sql: string, params: unknown[] = []) => fixture.rows(sql, params);

  beforeAll(async () => {
    fixture = await AlertsManagementFixture.start();
    ({ api, alice } = fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('matches market names without regard to case and stores the known spelling; names the unknown one', async () => {
    const endpoint = (await as(alice).post('/events/endpoints', { url: 'https://hooks.example.com/markets' })).body.data.id;
    const price = await as(alice).post('/events', {
      eventType: 'price_crossing',
      webhookEndpointId: endpoint,
      filters: { market: 'btc', threshold: '100000' },
    });
    expect(price.status).toBe(201);
    expect(price.body.data.filters).toEqual({ market: 'BTC', threshold: '100000', direction: 'both' });
    const activity = await as(alice).post('/events', {
      eventType: 'position_activity',
      webhookEndpointId: endpoint,
      addresses: [A(3)],
      filters: { coin: ['KPEPE', 'eth', 'XYZ:tsla', 'xyz:gold'] },
    });
    expect(activity.status).toBe(201);
    expect(activity.body.data.filters).toEqual({ coin: ['kPEPE', 'ETH', 'xyz:TSLA', 'xyz:GOLD'] });
    expect((await rows(`SELECT filters FROM alert_rules WHERE id = $1`, [activity.body.data.id]))[0].filters).toEqual({
      coin: ['kPEPE', 'ETH', 'xyz:TSLA', 'xyz:GOLD'],
    });
    const unknown = await as(alice).patch(`/events/${activity.body.data.id}`, { filters: { coin: ['ETH', 'ETHH'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ field: 'filters.coin[1]', message: 'ETHH is not a market the service knows' }]);
    const noTicks = await as(alice).post('/events', {
      eventType: 'price_crossing',
      webhookEndpointId: endpoint,
      filters: { market: 'XYZ:GOLD', threshold: '1' },
    });
    // With the public-API feed a market's mid is its tick: one whose mid ticked takes a price rule.
    await rows(`INSERT INTO alert_price_markets (coin) VALUES ('xyz:SILVER')`);
    const midOnly = await as(alice).post('/events', {
      eventType: 'price_crossing',
      webhookEndpointId: endpoint,
      filters: { market: 'XYZ:silver', threshold: '30' },
    });
    expect([midOnly.status, midOnly.body.data?.filters]).toEqual([201, { market: 'xyz:SILVER', threshold: '30', direction: 'both' }]);
    expect(noTicks.body.errors).toEqual([
      { field: 'filters.market', message: 'xyz:GOLD has no price ticks yet: a price_crossing on it could never fire' },
    ]);
    expect((await rows(`SELECT filters FROM alert_rules WHERE id = $1`, [activity.body.data.id]))[0].filters.coin).toHaveLength(4);
  });

  it("caps exchange-wide rules and the addresses of all rules by the consumer's plan, with a 403 naming the cap", async () => {
    const dave = await api.createConsumer({ name: 'dave', plan: 'free', rateLimitPerMinute: 10_000, usageLimit: 10_000 });
    const endpoint = (await as(dave).post('/events/endpoints', { url: 'https://hooks.example.com/free' })).body.data.id;
    const create = (rule: object) => as(dave).post('/events', { ...rule, webhookEndpointId: endpoint });
    expect((await create({ eventType: 'ledger_update' })).status).toBe(201);
    expect((await create({ eventType: 'liquidation', filters: { markets: ['BTC'] } })).status).toBe(201);
    // Price and state rules watch a market or the service, not every wallet: not counted.
    expect((await create({ eventType: 'price_crossing', filters: { market: 'ETH', threshold: '3000' } })).status).toBe(201);
    expect((await create({ eventType: 'state_updated' })).status).toBe(201);
    // With addresses, the same types are not exchange-wide.
    expect((await create({ eventType: 'twap_lifecycle', addresses: [A(1), A(2)] })).status).toBe(201);
    const third = await create({ eventType: 'large_market_order', filters: { thresholdUsd: '100000' } });
    expect(third.status).toBe(403);
    expect(third.body).toEqual({
      status: 'error',
      error: 'plan_limit_exceeded',
      limit: 'exchangeWideRules',
      plan: 'free',
      max: 2,
      message:
        'the Free plan allows 2 exchange-wide rules (rules without addresses of twap_lifecycle, ledger_update, liquidation, large_market_order), and this account has 2: give the rule addresses, delete one, or change plan',
    });
    // 2 addresses held; 998 more fit in Free's 1000, 999 do not.
    const many = (n: number, from: number) => Array.from({ length: n }, (_, i) => A(from + i));
    const tooMany = await create({ eventType: 'position_activity', addresses: many(999, 100) });
    expect(tooMany.status).toBe(403);
    expect(tooMany.body).toMatchObject({ error: 'plan_limit_exceeded', limit: 'ruleAddresses', plan: 'free', max: 1000 });
    expect(tooMany.body.message).toBe(
      "the Free plan allows 1000 addresses over all alert rules; this account's other rules hold 2 and this rule 999",
    );
    const fits = await create({ eventType: 'position_activity', addresses: many(998, 100) });
    expect(fits.status).toBe(201);
    // An update counts the rule's new addresses in place of its old ones; emptying the twap rule makes a third exchange-wide one.
    const twap = (await as(dave).get('/events?eventType=twap_lifecycle')).body.data[0].id;
    expect((await as(dave).patch(`/events/${twap}`, { addresses: many(3, 5000) })).status).toBe(403);
    expect((await as(dave).patch(`/events/${twap}`, { addresses: [A(9)] })).status).toBe(200);
    expect((await as(dave).patch(`/events/${twap}`, { addresses: [] })).body.limit).toBe('exchangeWideRules');
    expect(
      await rows(
        `SELECT count(*)::int AS rules, sum(cardinality(addresses))::int AS addresses,
                count(*) FILTER (WHERE cardinality(addresses) = 0 AND event_type IN ('ledger_update', 'liquidation', 'twap_lifecycle', 'large_market_order'))::int AS wide
         FROM alert_rules WHERE consumer_id = $1`,
        [dave.consumerId],
      ),
    ).toEqual([{ rules: 6, addresses: 999, wide: 2 }]);
  });

  it('cancels the deliveries a rule still owed when it is deleted or paused; they show as cancelled and are not retried', async () => {
    const endpoint = (await as(alice).post('/events/endpoints', { url: 'https://hooks.example.com/cancel' })).body.data.id;
    const deleted = (await as(alice).post('/events', { eventType: 'ledger_update', webhookEndpointId: endpoint })).body.data.id;
    const paused = (await as(alice).post('/events', { eventType: 'twap_lifecycle', webhookEndpointId: endpoint })).body.data.id;
    const insert = (id: string, rule: number, status: string, attempts: number, heldReason: string | null = null) =>
      rows(
        `INSERT INTO webhook_deliveries (delivery_id, consumer_id, webhook_endpoint_id, rule_id, event_type, occurred_at, payload, status, attempt_count, held_reason)
         VALUES ($1, $2, $3, $4, 'ledger_update', now(), '{}', $5, $6, $7)`,
        [H(id), alice.consumerId, endpoint, rule, status, attempts, heldReason],
      );
    // For each rule: a first attempt due, a retry scheduled, a held one, and one already delivered.
    const labels = new Map<string, string>();
    const label = (id: string) => labels.get(id) ?? id;
    for (const p of ['d', 'p']) for (const k of ['pending', 'retrying', 'held', 'delivered']) labels.set(H(`${p}-${k}`), `${p}-${k}`);
    for (const [prefix, rule] of [
      ['d', deleted],
      ['p', paused],
    ] as const) {
      await insert(`${prefix}-pending`, rule, 'pending', 0);
      await insert(`${prefix}-retrying`, rule, 'pending', 3);
      await insert(`${prefix}-held`, rule, 'held', 0, 'endpoint_paused');
      await insert(`${prefix}-delivered`, rule, 'delivered', 1);
    }
    expect((await as(alice).delete(`/events/${deleted}`)).status).toBe(204);
    expect((await as(alice).post(`/events/${paused}/pause`)).status).toBe(200);
    // Resuming the rule does not bring them back: they were for a rule that was off.
    expect((await as(alice).post(`/events/${paused}/resume`)).status).toBe(200);
    expect(
      await rows(
        `SELECT delivery_id, status, held_reason, attempt_count, last_error FROM webhook_deliveries WHERE webhook_endpoint_id = $1`,
        [endpoint],
      ).then((found: Array<{ delivery_id: string }>) => found.sort((x, y) => label(x.delivery_id).localeCompare(label(y.delivery_id)))),
    ).toEqual([
      { delivery_id: H('d-delivered'), status: 'delivered', held_reason: null, attempt_count: 1, last_error: null },
      ...['d-held', 'd-pending', 'd-retrying'].map((id) => ({
        delivery_id: H(id),
        status: 'cancelled',
        held_reason: null,
        attempt_count: id === 'd-retrying' ? 3 : 0,
        last_error: 'cancelled: the rule was deleted before it was sent',
      })),
      { delivery_id: H('p-delivered'), status: 'delivered', held_reason: null, attempt_count: 1, last_error: null },
      ...['p-held', 'p-pending', 'p-retrying'].map((id) => ({
        delivery_id: H(id),
        status: 'cancelled',
        held_reason: null,
        attempt_count: id === 'p-retrying' ? 3 : 0,
        last_error: 'cancelled: the rule was paused before it was sent',
      })),
    ]);
    const log = (await as(alice).get(`/events/endpoints/${endpoint}/deliveries?status=cancelled`)).body.data.deliveries;
    expect(log.map((d: { deliveryId: string; status: string }) => [label(d.deliveryId), d.status]).sort()).toEqual(
      ['d-held', 'd-pending', 'd-retrying', 'p-held', 'p-pending', 'p-retrying'].map((id) => [id, 'cancelled']),
    );
    const retry = await as(alice).post(`/events/deliveries/${H('d-pending')}/retry`);
    expect([retry.status, retry.body.errors]).toEqual([
      400,
      [{ field: 'deliveryId', message: `delivery ${H('d-pending')} is cancelled: only a failed delivery can be retried` }],
    ]);
  });

  it('refuses to retry an expired delivery, or a failed one past its expiry, with a 409 saying why; replay leaves them too', async () => {
    const endpoint = (await as(alice).post('/events/endpoints', { url: 'https://hooks.example.com/expiry' })).body.data.id;
    const insert = (id: string, status: string, occurredAgoMin: number) =>
      rows(
        `INSERT INTO webhook_deliveries (delivery_id, consumer_id, webhook_endpoint_id, rule_id, event_type, occurred_at, payload, status, expires_at, attempt_count)
         VALUES ($1, $2, $3, 5, 'price_crossing', now() - $4 * interval '1 minute', '{}', $5, now() - $4 * interval '1 minute' + interval '1 hour', 8)`,
        [H(id), alice.consumerId, endpoint, occurredAgoMin, status],
      );
    await insert('x-expired', 'expired', 90);
    await insert('x-failed-late', 'failed', 61);
    await insert('x-failed-in-time', 'failed', 30);
    const expiresAt = async (id: string) =>
      (await rows(`SELECT expires_at FROM webhook_deliveries WHERE delivery_id = $1`, [H(id)]))[0].expires_at.toISOString();
    for (const id of ['x-expired', 'x-failed-late']) {
      const res = await as(alice).post(`/events/deliveries/${H(id)}/retry`);
      expect([res.status, res.body]).toEqual([
        409,
        {
          status: 'error',
          message: `delivery ${H(id)} expired at ${await expiresAt(id)}: a price_crossing delivery is not sent later than that after its occurrence`,
        },
      ]);
    }
    const replay = await as(alice).post(`/events/endpoints/${endpoint}/replay`, { since: new Date(Date.now() - 3_600_000).toISOString() });
    expect(replay.body.data).toEqual({ replayed: 1 });
    // The one retried keeps its expiry: a fresh schedule, not a fresh hour.
    const before = await expiresAt('x-failed-in-time');
    expect(
      await rows(`SELECT delivery_id, status, attempt_count FROM webhook_deliveries WHERE webhook_endpoint_id = $1 ORDER BY occurred_at`, [
        endpoint,
      ]),
    ).toEqual([
      { delivery_id: H('x-expired'), status: 'expired', attempt_count: 8 },
      { delivery_id: H('x-failed-late'), status: 'failed', attempt_count: 8 },
      { delivery_id: H('x-failed-in-time'), status: 'pending', attempt_count: 0 },
    ]);
    const [{ occurred_at: occurredAt }] = await rows(`SELECT occurred_at FROM webhook_deliveries WHERE delivery_id = $1`, [
      H('x-failed-in-time'),
    ]);
    expect(before).toBe(new Date(occurredAt.getTime() + 3_600_000).toISOString());
  });

  it('keeps a paused endpoint paused when only its description changes, also while it is suspended', async () => {
    const e = (await as(alice).post('/events/endpoints', { url: 'https://hooks.example.com/pp' })).body.data.id;
    await as(alice).post(`/events/endpoints/${e}/pause`);
    expect((await as(alice).patch(`/events/endpoints/${e}`, { description: 'still paused' })).body.data).toMatchObject({
      status: 'paused',
      description: 'still paused',
    });
    await rows(`UPDATE webhook_endpoints SET suspended_at = now(), suspended_reason = 'the receiver answered 410 Gone' WHERE id = $1`, [e]);
    expect((await as(alice).patch(`/events/endpoints/${e}`, { description: 'suspended too' })).body.data.status).toBe('suspended');
    expect(await rows(`SELECT paused, description FROM webhook_endpoints WHERE id = $1`, [e])).toEqual([
      { paused: true, description: 'suspended too' },
    ]);
    // Resume lifts both.
    expect((await as(alice).post(`/events/endpoints/${e}/resume`)).body.data.status).toBe('active');
  });
});
