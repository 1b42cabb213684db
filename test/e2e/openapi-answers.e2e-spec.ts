import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { MarketStateWriter } from '#market';
import { address, exchangeState, positionState, startedWriter, walletState } from '#testing';
import { ApiHarness } from '../support/api-harness.js';
import { BUILDER, routeSamples, WALLET, writeAnalyticsData } from '../support/analytics-data.js';
import { AnswerValidator, operationsOf, type OpenApiDocument } from '../support/openapi-answers.js';

const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 86_400_000;

/**
 * Every route of /docs-json called with real inputs on seeded data, each answer checked against the schema the
 * document gives for its status by a strict JSON Schema validator. The routes that change data run on a consumer
 * of their own, in the order a user would call them (create, read, change, pause, delete). A route of the
 * document that no call reached fails the suite: a new route needs its call here.
 */
describe('every answer as the OpenAPI document describes it', () => {
  const exportDir = mkdtempSync(join(tmpdir(), 'tidewatch-openapi-exports-'));
  let api: ApiHarness;
  let dataSource: DataSource;
  let document: OpenApiDocument;
  let validator: AnswerValidator;
  let token: string;
  let consumerId: number;
  let samples: Record<string, string>;
  /** Operations answered with a 2xx or 3xx that was checked. */
  const answered = new Set<string>();
  const problems: string[] = [];
  /** What the answers on the empty database broke. */
  const emptyProblems: string[] = [];

  /** Sends one request of `operation` and checks its answer; returns it for the next calls' ids. */
  async function call(operation: string, url: string, options: { body?: object; auth?: boolean } = {}): Promise<Response> {
    const method = operation.split(' ')[0]!.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    let request = api.http[method](url);
    if (options.auth ?? true) request = request.set('Authorization', `Bearer ${token}`);
    if (options.body !== undefined) problems.push(...validator.requestProblems(operation, options.body));
    const res = await (options.body === undefined ? request : request.send(options.body));
    problems.push(...validator.problems(operation, res).map((p) => `${p} (${url})`));
    if (res.status < 400) answered.add(operation);
    return res;
  }

  /** The operation's path with its slots filled from `values`, and every query field that has a sample. */
  function urlOf(operation: string, values: Record<string, string>, withFilters: boolean): string {
    const [method, path] = operation.split(' ') as [string, string];
    const parameters = document.paths[path]![method.toLowerCase()]!.parameters ?? [];
    const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (values[name] === undefined) throw new Error(`${operation}: no sample for path parameter ${name}`);
      return encodeURIComponent(values[name]);
    });
    const pairs = parameters
      .filter((p) => p.in === 'query' && (p.required === true || withFilters))
      .flatMap((p): Array<[string, string]> => {
        const value = samples[p.name] ?? (p.required === true ? String(p.schema?.enum?.[0]) : undefined);
        return value === undefined ? [] : [[p.name, value]];
      });
    return pairs.length === 0 ? filled : `${filled}?${new URLSearchParams(pairs).toString()}`;
  }

  beforeAll(async () => {
    api = await ApiHarness.start({ env: { EXPORT_DIR: exportDir } });
    ({ token, consumerId } = await api.createConsumer({ name: 'openapi-answers', rateLimitPerMinute: 100_000, usageLimit: 1_000_000 }));
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
    document = (await api.http.get('/docs-json')).body as OpenApiDocument;
    validator = new AnswerValidator(document);
    // Before any data: the answers of an empty service (nulls, empty lists, 404s) are checked too.
    const empty = {
      id: '1',
      deliveryId: FAILED,
      segmentId: '1',
      segment: '1',
      coin: 'BTC',
      timeframe: '7d',
      builder: BUILDER,
      address: WALLET,
    };
    samples = { ...empty, snapshotTime: iso(Math.floor((Date.now() - 2 * DAY) / 300_000) * 300_000) };
    for (const operation of operationsOf(document).filter((op) => op.startsWith('GET ') && !op.startsWith('GET /exports/files/'))) {
      for (const withFilters of [false, true])
        await call(operation, urlOf(operation, samples, withFilters), { auth: !PUBLIC.has(operation) });
    }
    emptyProblems.push(...problems);
    problems.length = 0;
    answered.clear();
    const data = await writeAnalyticsData(dataSource);
    // A later update where a new wallet holds HYPE: nothing 24 hours or 7 days before it, so its history is null.
    await (
      await startedWriter(dataSource, MarketStateWriter)
    ).apply(
      exchangeState(3, data.last + 3_600_000, [
        walletState(WALLET, {
          perpEquity: '250000',
          allTimePnl: '5000',
          spotHype: '10',
          stakedHype: '5',
          positions: [positionState('BTC', { liquidationPx: '80' })],
        }),
        walletState(address(0x7004), { positions: [positionState('ETH', { szi: '-2', liquidationPx: '130' })] }),
        walletState(NEWCOMER, { spotHype: '3' }),
      ]),
    );
    samples = await routeSamples(dataSource, data);
  });
  beforeEach(() => {
    problems.length = 0;
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await api?.close();
    rmSync(exportDir, { recursive: true, force: true });
  });

  it('answered every GET route as documented before any data existed', () => {
    expect(emptyProblems).toEqual([]);
  });

  it('answers the alert management routes as documented, from creating an endpoint to deleting it', async () => {
    const endpoint = await call('POST /events/endpoints', '/events/endpoints', {
      body: { url: 'https://hooks.example.com/answers', secretKey: 'a-secret-of-at-least-16-chars', description: 'answers' },
    });
    expect(endpoint.status).toBe(201);
    const id = String(endpoint.body.data.id);
    const rule = await call('POST /events', '/events', {
      body: { eventType: 'ledger_update', webhookEndpointId: Number(id), filters: { types: ['deposit'], amount: { gte: '1000' } } },
    });
    expect(rule.status).toBe(201);
    const ruleId = String(rule.body.data.id);
    await seedDeliveries(Number(id), Number(ruleId));

    const values = { id, deliveryId: FAILED };
    await call('GET /events/endpoints', '/events/endpoints');
    await call('GET /events/endpoints/{id}', urlOf('GET /events/endpoints/{id}', values, false));
    await call('PATCH /events/endpoints/{id}', `/events/endpoints/${id}`, { body: { description: 'changed' } });
    await call('POST /events/endpoints/{id}/pause', `/events/endpoints/${id}/pause`);
    await call('GET /events/endpoints/{id}', `/events/endpoints/${id}`);
    await call('POST /events/endpoints/{id}/resume', `/events/endpoints/${id}/resume`);
    await call('GET /events/endpoints/{id}/health', `/events/endpoints/${id}/health`);
    for (const withFilters of [false, true])
      await call('GET /events/endpoints/{id}/deliveries', urlOf('GET /events/endpoints/{id}/deliveries', values, withFilters));
    await call('GET /events/endpoints/{id}/deliveries', `/events/endpoints/${id}/deliveries?status=held`);
    await call('POST /events/deliveries/{deliveryId}/retry', `/events/deliveries/${FAILED}/retry`);
    await call('POST /events/endpoints/{id}/replay', `/events/endpoints/${id}/replay`, { body: { since: iso(Date.now() - DAY) } });

    await call('GET /events', '/events');
    await call('GET /events', `/events?eventType=ledger_update&webhookEndpointId=${id}`);
    await call('GET /events/{id}', `/events/${ruleId}`);
    await call('PATCH /events/{id}', `/events/${ruleId}`, { body: { filters: { types: ['withdraw'] } } });
    await call('POST /events/{id}/pause', `/events/${ruleId}/pause`);
    await call('POST /events/{id}/resume', `/events/${ruleId}/resume`);
    expect((await call('DELETE /events/{id}', `/events/${ruleId}`)).status).toBe(204);
    expect((await call('DELETE /events/endpoints/{id}', `/events/endpoints/${id}`)).status).toBe(204);
    // The error answers have their documented bodies too.
    await call('GET /events/{id}', `/events/${ruleId}`);
    await call('GET /events/endpoints/{id}', `/events/endpoints/${id}`);
    const invalid = await api.http.post('/events').set('Authorization', `Bearer ${token}`).send({ eventType: 'nothing' });
    problems.push(...validator.problems('POST /events', invalid));
    expect(invalid.status).toBe(400);
    expect(problems).toEqual([]);
  });

  it('answers the favourites routes as documented', async () => {
    const other = address(0x7fff);
    await call('PUT /api/favorites/accounts/{address}', `/api/favorites/accounts/${WALLET}`);
    await call('PUT /api/favorites/accounts/{address}', `/api/favorites/accounts/${other}`);
    await call('GET /api/favorites/accounts', '/api/favorites/accounts');
    expect((await call('DELETE /api/favorites/accounts/{address}', `/api/favorites/accounts/${other}`)).status).toBe(204);
    expect(problems).toEqual([]);
  });

  it('answers every GET route as documented, with only the required inputs and with every filter', async () => {
    const gets = operationsOf(document).filter((op) => op.startsWith('GET ') && !answered.has(op) && !op.startsWith('GET /exports/files/'));
    for (const operation of gets) {
      for (const withFilters of [false, true]) {
        const url = urlOf(operation, samples, withFilters);
        const res = await call(operation, url, { auth: !PUBLIC.has(operation) });
        if (res.status === 302) {
          // An export: its signed link serves the file without the token.
          const link = new URL(String(res.headers.location), 'http://localhost');
          const file = await call('GET /exports/files/{kind}/{coin}/{file}', `${link.pathname}${link.search}`, { auth: false });
          expect(file.status).toBe(200);
          const altered = await call('GET /exports/files/{kind}/{coin}/{file}', `${link.pathname}${link.search}0`, { auth: false });
          const unknown = await call('GET /exports/files/{kind}/{coin}/{file}', `${link.pathname}${link.search}&x=1`, { auth: false });
          expect([altered.status, unknown.status]).toEqual([403, 400]);
        }
        expect({ url, status: res.status }).toEqual({ url, status: res.status < 400 ? res.status : 200 });
      }
    }
    expect(problems).toEqual([]);
    // The answers checked held both sides of a nullable reference: a holder with its history, one without.
    const holders: Array<{ address: string; history: Record<string, object | null> }> = (await api.get('/api/external/hype/holders', token))
      .body.items;
    expect(holders.map((h) => [h.address, h.history['24h'] === null, h.history['7d'] === null]).sort()).toEqual(
      [
        [WALLET, false, false],
        [NEWCOMER, true, true],
      ].sort(),
    );
  });

  it('answers a bad query field and a missing token with the documented error bodies', async () => {
    for (const operation of operationsOf(document).filter(
      (op) => op.startsWith('GET ') && !PUBLIC.has(op) && !op.startsWith('GET /exports/files/'),
    )) {
      const url = urlOf(operation, { ...samples, id: '1', deliveryId: FAILED }, false);
      const bad = await call(operation, `${url}${url.includes('?') ? '&' : '?'}unknownField=1`);
      expect({ operation, status: bad.status }).toEqual({ operation, status: 400 });
      const anonymous = await call(operation, url, { auth: false });
      expect({ operation, status: anonymous.status }).toEqual({ operation, status: 401 });
    }
    expect(problems).toEqual([]);
  });

  it('answers path values that name nothing with a documented status and body', async () => {
    const nothing = {
      ...samples,
      coin: 'NOPE',
      segmentId: '17',
      segment: '17',
      address: address(0x9999),
      builder: `0x${'e'.repeat(40)}`,
      // A 5-minute mark of the last 30 days at which no snapshot was taken.
      snapshotTime: iso(Math.floor((Date.now() - 10 * DAY) / 300_000) * 300_000),
      id: '999999',
      deliveryId: 'f'.repeat(64),
    };
    const withSlots = operationsOf(document).filter((op) => op.includes('{') && !op.startsWith('GET /exports/files/'));
    for (const operation of withSlots) {
      const method = operation.split(' ')[0]!;
      const res = await call(operation, urlOf(operation, nothing, false), method === 'PATCH' ? { body: {} } : {});
      // A 404, or what an idempotent call answers (a favourite removed that was never added: 204).
      expect({ operation, status: res.status }).toEqual({ operation, status: [200, 204].includes(res.status) ? res.status : 404 });
    }
    expect(problems).toEqual([]);
  });

  it('answers the websocket ticket route as documented', async () => {
    expect((await call('POST /api/external/ws/tickets', '/api/external/ws/tickets')).status).toBe(201);
    expect(problems).toEqual([]);
  });

  it('reached every operation of the document with an answer that was checked', () => {
    expect(operationsOf(document).filter((op) => !answered.has(op))).toEqual([]);
    expect(answered.size).toBeGreaterThanOrEqual(50);
  });

  /** The delivery log's three kinds of rows: failed after attempts, held, delivered. */
  async function seedDeliveries(endpointId: number, ruleId: number): Promise<void> {
    const insert = (deliveryId: string, status: string, heldReason: string | null, error: string | null) =>
      dataSource.query(
        `INSERT INTO webhook_deliveries (delivery_id, consumer_id, webhook_endpoint_id, rule_id, event_type, occurred_at, payload, status,
                                         held_reason, attempt_count, last_error, delivered_at)
         VALUES ($1, $2, $3, $4, 'ledger_update', now(), '{"type":"deposit","usdc":"1500"}', $5, $6, $7, $8, CASE WHEN $5 = 'delivered' THEN now() END)`,
        [deliveryId, consumerId, endpointId, ruleId, status, heldReason, status === 'held' ? 0 : 1, error],
      );
    await insert(FAILED, 'failed', null, 'HTTP 500');
    await insert('b'.repeat(64), 'held', 'endpoint_paused', null);
    await insert('c'.repeat(64), 'delivered', null, null);
    await dataSource.query(
      `INSERT INTO webhook_delivery_attempts (delivery_id, webhook_endpoint_id, attempt, started_at, duration_ms, status_code, outcome, error, response_body)
       VALUES ($1, $3, 1, now() - interval '1 minute', 120, 500, 'retryable', 'HTTP 500', 'oops'),
              ($2, $3, 1, now() - interval '2 minutes', 80, 200, 'delivered', NULL, NULL)`,
      [FAILED, 'c'.repeat(64), endpointId],
    );
  }
});

const FAILED = 'a'.repeat(64);
const NEWCOMER = address(0x7005);
/** Routes that take no token. */
const PUBLIC = new Set(['GET /health', 'GET /metrics', 'GET /exports/files/{kind}/{coin}/{file}']);
