import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Queue } from 'bullmq';
import { deliveryJobId } from '#alerts';
import { A, AlertsManagementFixture, type Consumer } from '../support/alerts-management.fixture.js';
import type { ApiHarness } from '../support/api-harness.js';

// The `/events` management API through the production bootstrap: exact records, every limit of the
// contract as a 400 naming its field that changes nothing, consumer isolation, the delivery log and
// the manual re-sends (delivery rows inserted directly: the chain that writes them has its own suite).
// What deleting, pausing, expiry and the plan's caps do is in alerts-management-lifecycle.e2e-spec.ts.

describe('alert management (/events)', () => {
  let fixture: AlertsManagementFixture;
  let api: ApiHarness;
  let alice: Consumer;
  let bob: Consumer;
  let queue: Queue;
  const as = (who: { token: string }) => fixture.as(who);
  const rows = (sql: string, params: unknown[] = []) => fixture.rows(sql, params);

  beforeAll(async () => {
    fixture = await AlertsManagementFixture.start();
    ({ api, alice, bob, queue } = fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('creates, reads, lists, updates and deletes an endpoint; the secret is never returned', async () => {
    const created = await as(alice).post('/events/endpoints', {
      url: 'https://hooks.example.com/tw',
      secretKey: 'whsec_c2VjcmV0LXNlY3JldA==',
      description: 'desk',
    });
    expect(created.status).toBe(201);
    const e = created.body.data;
    expect(created.body).toEqual({
      status: 'success',
      data: {
        id: e.id,
        url: 'https://hooks.example.com/tw',
        description: 'desk',
        status: 'active',
        hasSecret: true,
        suspendedReason: null,
        createdAt: e.createdAt,
        updatedAt: e.updatedAt,
      },
    });
    expect(JSON.stringify(created.body)).not.toContain('whsec_');
    expect((await as(alice).get(`/events/endpoints/${e.id}`)).body.data).toEqual(e);
    expect((await as(alice).get('/events/endpoints')).body.data).toEqual([e]);
    const patched = await as(alice).patch(`/events/endpoints/${e.id}`, { secretKey: null, description: 'ops' });
    expect(patched.body.data).toMatchObject({
      id: e.id,
      url: 'https://hooks.example.com/tw',
      description: 'ops',
      hasSecret: false,
      status: 'active',
    });
    expect((await rows(`SELECT secret_key FROM webhook_endpoints WHERE id = $1`, [e.id]))[0].secret_key).toBeNull();
    expect((await as(alice).delete(`/events/endpoints/${e.id}`)).status).toBe(204);
    expect((await as(alice).get(`/events/endpoints/${e.id}`)).status).toBe(404);
  });

  it('refuses bad endpoint bodies with a 400 naming the field, and stores nothing', async () => {
    const before = (await rows(`SELECT count(*)::int AS n FROM webhook_endpoints`))[0].n;
    const cases: Array<[object, string]> = [
      [{}, 'url'],
      [{ url: 'http://hooks.example.com/' }, 'url'],
      [{ url: 'ftp://hooks.example.com/' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'https://user:pw@hooks.example.com/' }, 'url'],
      [{ url: `https://example.com/${'a'.repeat(2050)}` }, 'url'],
      [{ url: 'https://hooks.example.com/', secretKey: 'short' }, 'secretKey'],
      [{ url: 'https://hooks.example.com/', secretKey: 'has a space' }, 'secretKey'],
      [{ url: 'https://hooks.example.com/', description: 'd'.repeat(501) }, 'description'],
      [{ url: 'https://hooks.example.com/', colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const res = await as(alice).post('/events/endpoints', body);
      expect([JSON.stringify(body).slice(0, 60), res.status, res.body.errors?.[0]?.field]).toEqual([
        JSON.stringify(body).slice(0, 60),
        400,
        field,
      ]);
      expect(res.body.status).toBe('error');
    }
    expect((await rows(`SELECT count(*)::int AS n FROM webhook_endpoints`))[0].n).toBe(before);
  });

  it('creates rules with defaults filled in, and enforces every limit of the contract with a 400 naming the field', async () => {
    const endpoint = (await as(alice).post('/events/endpoints', { url: 'https://hooks.example.com/rules' })).body.data.id;
    const ok = await as(alice).post('/events', {
      eventType: 'liquidation',
      webhookEndpointId: endpoint,
      addresses: [A(1).toUpperCase().replace('0X', '0x')],
      filters: { markets: ['BTC', 'xyz:TSLA'], thresholdUsd: '0.01' },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toEqual({
      id: ok.body.data.id,
      eventType: 'liquidation',
      webhookEndpointId: endpoint,
      addresses: [A(1)],
      filters: { markets: ['BTC', 'xyz:TSLA'], thresholdUsd: '0.01', side: 'both' },
      paused: false,
      createdAt: ok.body.data.createdAt,
      updatedAt: ok.body.data.updatedAt,
    });
    const version = async () => (await rows(`SELECT coalesce((SELECT version FROM alert_rules_version), 0)::int AS v`))[0].v;
    const versionBefore = await version();
    const thousand = Array.from({ length: 1000 }, (_, i) => A(i + 1));
    const hundred = Array.from({ length: 100 }, (_, i) => `M${i}`);
    const valid: object[] = [
      { eventType: 'position_activity', addresses: thousand },
      { eventType: 'twap_execution', addresses: [A(2)], filters: { coin: hundred } },
      { eventType: 'twap_lifecycle' },
      { eventType: 'ledger_update', filters: { types: ['deposit'], amount: { gte: '1000', lt: '5000.5' } } },
      { eventType: 'price_crossing', filters: { market: 'BTC', threshold: '100000.5', direction: 'above' } },
      { eventType: 'large_market_order', filters: { thresholdUsd: '50000', markets: ['ETH'], direction: 'sell' } },
      { eventType: 'state_updated' },
    ];
    for (const rule of valid) expect((await as(alice).post('/events', { ...rule, webhookEndpointId: endpoint })).status).toBe(201);
    expect(await version()).toBe(versionBefore + valid.length);

    const before = (await rows(`SELECT count(*)::int AS n FROM alert_rules`))[0].n;
    const invalid: Array<[object, string]> = [
      [{ eventType: 'fills' }, 'eventType'],
      [{ eventType: 'position_activity' }, 'addresses'],
      [{ eventType: 'position_activity', addresses: [] }, 'addresses'],
      [{ eventType: 'position_activity', addresses: [...thousand, A(5000)] }, 'addresses'],
      [{ eventType: 'position_activity', addresses: [A(1), '0x123'] }, 'addresses[1]'],
      [{ eventType: 'position_activity', addresses: [A(1), A(1).toUpperCase().replace('0X', '0x')] }, 'addresses[1]'],
      [{ eventType: 'twap_lifecycle', addresses: [...thousand, A(5000)] }, 'addresses'],
      [{ eventType: 'price_crossing', addresses: [A(1)], filters: { market: 'BTC', threshold: '1' } }, 'addresses'],
      [{ eventType: 'large_market_order', addresses: [A(1)], filters: { thresholdUsd: '60000' } }, 'addresses'],
      [{ eventType: 'position_activity', addresses: [A(1)], filters: { coin: [] } }, 'filters.coin'],
      [{ eventType: 'position_activity', addresses: [A(1)], filters: { coin: [...hundred, 'X'] } }, 'filters.coin'],
      [{ eventType: 'position_activity', addresses: [A(1)], filters: { coin: ['BTC', 'BTC'] } }, 'filters.coin[1]'],
      [{ eventType: 'position_activity', addresses: [A(1)], filters: { markets: ['BTC'] } }, 'filters.markets'],
      [{ eventType: 'ledger_update', filters: { types: [] } }, 'filters.types'],
      [{ eventType: 'ledger_update', filters: { types: ['deposit', 'deposit'] } }, 'filters.types'],
      [{ eventType: 'ledger_update', filters: { types: ['transfer'] } }, 'filters.types[0]'],
      [{ eventType: 'ledger_update', filters: { amount: {} } }, 'filters.amount'],
      [{ eventType: 'ledger_update', filters: { amount: { gte: 1000 } } }, 'filters.amount.gte'],
      [{ eventType: 'ledger_update', filters: { amount: { gte: '1e3' } } }, 'filters.amount.gte'],
      [{ eventType: 'ledger_update', filters: { amount: { between: '1' } } }, 'filters.amount.between'],
      [{ eventType: 'price_crossing', filters: { threshold: '1' } }, 'filters.market'],
      [{ eventType: 'price_crossing', filters: { market: 'BTC' } }, 'filters.threshold'],
      [{ eventType: 'price_crossing', filters: { market: 'BTC', threshold: '0' } }, 'filters.threshold'],
      [{ eventType: 'price_crossing', filters: { market: 'BTC', threshold: '-5' } }, 'filters.threshold'],
      [{ eventType: 'price_crossing', filters: { market: 'BTC', threshold: '5', direction: 'sideways' } }, 'filters.direction'],
      [{ eventType: 'large_market_order' }, 'filters.thresholdUsd'],
      [{ eventType: 'large_market_order', filters: { thresholdUsd: '49999.99999999' } }, 'filters.thresholdUsd'],
      [{ eventType: 'large_market_order', filters: { thresholdUsd: '60000', direction: 'above' } }, 'filters.direction'],
      [{ eventType: 'liquidation', filters: { thresholdUsd: '0' } }, 'filters.thresholdUsd'],
      [{ eventType: 'liquidation', filters: { side: 'up' } }, 'filters.side'],
      [{ eventType: 'state_updated', filters: { coin: ['BTC'] } }, 'filters.coin'],
      [{ eventType: 'ledger_update', filters: 'deposits' }, 'filters'],
      // Market names are checked against the markets the service knows (without regard to case).
      [{ eventType: 'position_activity', addresses: [A(1)], filters: { coin: ['BTC', 'NOPE'] } }, 'filters.coin[1]'],
      [{ eventType: 'liquidation', filters: { markets: ['btc', 'BTC'] } }, 'filters.markets[1]'],
      [{ eventType: 'large_market_order', filters: { thresholdUsd: '60000', markets: ['xyz:NOPE'] } }, 'filters.markets[0]'],
      [{ eventType: 'price_crossing', filters: { market: 'NOPE', threshold: '1' } }, 'filters.market'],
      // Known, but without price ticks: held in a position yet never traded here, or a spot market.
      [{ eventType: 'price_crossing', filters: { market: 'xyz:GOLD', threshold: '1' } }, 'filters.market'],
      [{ eventType: 'price_crossing', filters: { market: '@107', threshold: '1' } }, 'filters.market'],
    ];
    for (const [rule, field] of invalid) {
      const res = await as(alice).post('/events', { ...rule, webhookEndpointId: endpoint });
      expect([JSON.stringify(rule).slice(0, 90), res.status, res.body.errors?.[0]?.field]).toEqual([
        JSON.stringify(rule).slice(0, 90),
        400,
        field,
      ]);
    }
    expect((await as(alice).post('/events', { eventType: 'twap_lifecycle', webhookEndpointId: '1' })).body.errors[0].field).toBe(
      'webhookEndpointId',
    );
    expect((await rows(`SELECT count(*)::int AS n FROM alert_rules`))[0].n).toBe(before);
    expect(await version()).toBe(versionBefore + valid.length);
  });

  it('updates, pauses, resumes and deletes a rule; its event type cannot change', async () => {
    const endpoint = (await as(alice).post('/events/endpoints', { url: 'https://hooks.example.com/u' })).body.data.id;
    const rule = (await as(alice).post('/events', { eventType: 'ledger_update', webhookEndpointId: endpoint })).body.data;
    const patched = await as(alice).patch(`/events/${rule.id}`, { addresses: [A(9)], filters: { types: ['withdraw'] } });
    expect(patched.body.data).toMatchObject({ id: rule.id, addresses: [A(9)], filters: { types: ['withdraw'] }, paused: false });
    expect((await as(alice).patch(`/events/${rule.id}`, { eventType: 'liquidation' })).body.errors[0].field).toBe('eventType');
    expect((await as(alice).post(`/events/${rule.id}/pause`)).body.data.paused).toBe(true);
    expect((await as(alice).post(`/events/${rule.id}/resume`)).body.data.paused).toBe(false);
    expect(
      (await as(alice).get(`/events?eventType=ledger_update&webhookEndpointId=${endpoint}`)).body.data.map((r: { id: number }) => r.id),
    ).toEqual([rule.id]);
    expect((await as(alice).delete(`/events/${rule.id}`)).status).toBe(204);
    expect((await as(alice).get(`/events/${rule.id}`)).status).toBe(404);
  });

  it("never lets one consumer see or touch another's endpoints, rules or deliveries", async () => {
    const endpoint = (await as(alice).post('/events/endpoints', { url: 'https://hooks.example.com/iso' })).body.data.id;
    const rule = (await as(alice).post('/events', { eventType: 'twap_lifecycle', webhookEndpointId: endpoint })).body.data.id;
    const deliveryId = 'c'.repeat(64);
    await rows(
      `INSERT INTO webhook_deliveries (delivery_id, consumer_id, webhook_endpoint_id, rule_id, event_type, occurred_at, payload, status) VALUES ($1, $2, $3, $4, 'twap_lifecycle', now(), '{}', 'failed')`,
      [deliveryId, alice.consumerId, endpoint, rule],
    );
    for (const path of [
      `/events/endpoints/${endpoint}`,
      `/events/endpoints/${endpoint}/health`,
      `/events/endpoints/${endpoint}/deliveries`,
      `/events/${rule}`,
    ]) {
      expect([path, (await as(bob).get(path)).status]).toEqual([path, 404]);
    }
    expect((await as(bob).post(`/events/deliveries/${deliveryId}/retry`)).status).toBe(404);
    expect((await as(bob).post(`/events/endpoints/${endpoint}/pause`)).status).toBe(404);
    expect((await as(bob).delete(`/events/${rule}`)).status).toBe(404);
    expect((await as(bob).post('/events', { eventType: 'twap_lifecycle', webhookEndpointId: endpoint })).status).toBe(404);
    expect((await as(bob).get('/events')).body.data).toEqual([]);
    expect((await as(bob).get('/events/endpoints')).body.data).toEqual([]);
    expect((await as(alice).get(`/events/${rule}`)).status).toBe(200);
  });

  it('shows the delivery log with attempts, pages it by cursor, retries and replays failed deliveries', async () => {
    const endpoint = (await as(alice).post('/events/endpoints', { url: 'https://hooks.example.com/log' })).body.data.id;
    const insert = (id: string, status: string, createdAt: string) =>
      rows(
        `INSERT INTO webhook_deliveries (delivery_id, consumer_id, webhook_endpoint_id, rule_id, event_type, occurred_at, payload, status, attempt_count, created_at, last_error)
         VALUES ($1, $2, $3, 42, 'ledger_update', '2026-11-24T10:00:00.000Z', '{"amount":"10.50"}', $4, $5, $6, $7)`,
        [id, alice.consumerId, endpoint, status, status === 'failed' ? 8 : 0, createdAt, status === 'failed' ? 'HTTP 500' : null],
      );
    const now = Date.now();
    const ids = Array.from({ length: 7 }, (_, i) => String(i).repeat(64));
    for (const [i, id] of ids.entries()) await insert(id, i % 2 ? 'failed' : 'delivered', new Date(now - (i + 1) * 60_000).toISOString());
    await rows(
      `INSERT INTO webhook_delivery_attempts (delivery_id, webhook_endpoint_id, attempt, started_at, duration_ms, status_code, outcome, error, response_body)
       VALUES ($1, $2, 1, '2026-11-24T10:00:01.000Z', 40, 500, 'retryable', 'HTTP 500', 'oops'), ($1, $2, 2, '2026-11-24T10:00:06.000Z', 10, 200, 'delivered', NULL, 'ok')`,
      [ids[0], endpoint],
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await as(alice).get(
        `/events/endpoints/${endpoint}/deliveries?limit=3${cursor ? `&nextCursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status).toBe(200);
      seen.push(...res.body.data.deliveries.map((d: { deliveryId: string }) => d.deliveryId));
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    const first = (await as(alice).get(`/events/endpoints/${endpoint}/deliveries?limit=1`)).body.data.deliveries[0];
    expect(first).toEqual({
      deliveryId: ids[0],
      eventId: 42,
      eventType: 'ledger_update',
      status: 'delivered',
      heldReason: null,
      attemptCount: 0,
      nextAttemptAt: null,
      occurredAt: '2026-11-24T10:00:00.000Z',
      createdAt: new Date(now - 60_000).toISOString(),
      deliveredAt: null,
      expiresAt: null,
      lastError: null,
      payload: { amount: '10.50' },
      attempts: [
        {
          attempt: 1,
          startedAt: '2026-11-24T10:00:01.000Z',
          durationMs: 40,
          statusCode: 500,
          outcome: 'retryable',
          error: 'HTTP 500',
          responseBody: 'oops',
        },
        {
          attempt: 2,
          startedAt: '2026-11-24T10:00:06.000Z',
          durationMs: 10,
          statusCode: 200,
          outcome: 'delivered',
          error: null,
          responseBody: 'ok',
        },
      ],
    });
    const failedOnly = (await as(alice).get(`/events/endpoints/${endpoint}/deliveries?status=failed`)).body.data.deliveries.map(
      (d: { deliveryId: string }) => d.deliveryId,
    );
    expect(failedOnly).toEqual([ids[1], ids[3], ids[5]]);
    expect((await as(alice).get(`/events/endpoints/${endpoint}/deliveries?nextCursor=abc.def`)).body.errors[0].field).toBe('nextCursor');

    // A delivered one cannot be retried; a failed one goes back to pending with a fresh schedule and a job.
    expect((await as(alice).post(`/events/deliveries/${ids[0]}/retry`)).body.errors[0].field).toBe('deliveryId');
    const retried = await as(alice).post(`/events/deliveries/${ids[1]}/retry`);
    expect(retried.status).toBe(202);
    expect(retried.body.data).toMatchObject({ deliveryId: ids[1], status: 'pending', attemptCount: 0 });
    expect(await queue.getJob(deliveryJobId(ids[1], 0))).toBeDefined();

    // Replay since 4.5 minutes ago: the failed ones created after it (ids[3]), not the older ids[5].
    const replay = await as(alice).post(`/events/endpoints/${endpoint}/replay`, { since: new Date(now - 270_000).toISOString() });
    expect(replay.status).toBe(202);
    expect(replay.body.data).toEqual({ replayed: 1 });
    expect(
      (
        await rows(
          `SELECT delivery_id FROM webhook_deliveries WHERE status = 'pending' AND webhook_endpoint_id = $1 ORDER BY delivery_id`,
          [endpoint],
        )
      ).map((r: { delivery_id: string }) => r.delivery_id),
    ).toEqual([ids[1], ids[3]]);
    for (const since of ['yesterday', new Date(now + 60_000).toISOString(), new Date(now - 31 * 86_400_000).toISOString()]) {
      expect((await as(alice).post(`/events/endpoints/${endpoint}/replay`, { since })).body.errors[0].field).toBe('since');
    }
  });

  it('reports endpoint health from the recorded attempts', async () => {
    const endpoint = (await as(alice).post('/events/endpoints', { url: 'https://hooks.example.com/health' })).body.data.id;
    expect((await as(alice).get(`/events/endpoints/${endpoint}/health`)).body.data).toEqual({
      state: 'active',
      consecutiveFailures: 0,
      lastSuccessAt: null,
      lastFailureAt: null,
      lastHour: { attempts: 0, successes: 0, failures: 0, successRate: null },
      lastDay: { attempts: 0, successes: 0, failures: 0, successRate: null },
      latencyMs: { p50: null, p95: null },
    });
    await rows(
      `INSERT INTO webhook_deliveries (delivery_id, consumer_id, webhook_endpoint_id, rule_id, event_type, occurred_at, payload, status) VALUES ($1, $2, $3, 1, 'ledger_update', now(), '{}', 'delivered')`,
      ['h'.repeat(64).replace(/h/g, 'a'), alice.consumerId, endpoint],
    );
    // Four attempts in the last hour (3 delivered, durations 10, 20, 30, 40) and one 5 hours ago (failed, 100 ms).
    const attempts: Array<[string, number, string]> = [
      ['10 minutes', 10, 'delivered'],
      ['20 minutes', 20, 'delivered'],
      ['30 minutes', 30, 'retryable'],
      ['40 minutes', 40, 'delivered'],
      ['5 hours', 100, 'permanent'],
    ];
    for (const [ago, ms, outcome] of attempts) {
      await rows(
        `INSERT INTO webhook_delivery_attempts (delivery_id, webhook_endpoint_id, attempt, started_at, duration_ms, outcome) VALUES ($1, $2, 1, now() - $3::interval, $4, $5)`,
        ['a'.repeat(64), endpoint, ago, ms, outcome],
      );
    }
    await rows(
      `UPDATE webhook_endpoints SET consecutive_failures = 2, last_success_at = '2026-11-24T09:00:00Z', last_failure_at = '2026-11-24T09:30:00Z' WHERE id = $1`,
      [endpoint],
    );
    expect((await as(alice).get(`/events/endpoints/${endpoint}/health`)).body.data).toEqual({
      state: 'active',
      consecutiveFailures: 2,
      lastSuccessAt: '2026-11-24T09:00:00.000Z',
      lastFailureAt: '2026-11-24T09:30:00.000Z',
      lastHour: { attempts: 4, successes: 3, failures: 1, successRate: 0.75 },
      lastDay: { attempts: 5, successes: 3, failures: 2, successRate: 0.6 },
      // Continuous percentiles of 10, 20, 30, 40, 100: the median is 30; p95 = 40 + 0.8 * 60.
      latencyMs: { p50: 30, p95: 88 },
    });
  });

  it('spends one usage token per management request', async () => {
    const carol = await api.createConsumer({ name: 'carol' });
    await as(carol).post('/events/endpoints', { url: 'https://hooks.example.com/c' });
    await as(carol).get('/events/endpoints');
    await as(carol).post('/events', { eventType: 'nope' });
    const usage = await api.get('/api/external/usage', carol.token);
    // Three management requests, and this usage read itself.
    expect(usage.body.data.used).toBe(4);
  });
});
