import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { JsonLogger } from '#runtime';
import { ApiHarness } from '../support/api-harness.js';
import { SPEC_COHORTS } from '../support/contract-cohorts.js';

const SEGMENTS = '/api/external/segments';
const STATE = '/api/external/tidewatch/state/status';

describe('HTTP contract', () => {
  let api: ApiHarness;
  let token: string;
  let db: pg.Client;

  beforeAll(async () => {
    api = await ApiHarness.start();
    ({ token } = await api.createConsumer({ name: 'contract-suite' }));
    db = new pg.Client({ connectionString: api.config.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await api.close();
  });

  describe('GET /api/external/segments', () => {
    it('lists the 16 cohorts exactly as the API contract, in its table order', async () => {
      const res = await api.get(SEGMENTS, token);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual(SPEC_COHORTS);
    });

    it('orders by id or name, in either direction, and limits', async () => {
      const ids = async (query: string) => (await api.get(`${SEGMENTS}?${query}`, token)).body.map((s: { id: number }) => s.id);
      expect(await ids('orderBy=id')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
      expect(await ids('orderBy=id&order=desc&limit=3')).toEqual([16, 15, 14]);
      expect(await ids('order=desc&limit=2')).toEqual([15, 14]);
      expect(await ids('limit=2')).toEqual([16, 1]);
      const names = (await api.get(`${SEGMENTS}?orderBy=name&order=desc&limit=3`, token)).body.map((s: { name: string }) => s.name);
      expect(names).toEqual(['Whale', 'Tidal Whale', 'Smart Money']);
    });

    it.each([
      ['limit=0', [{ field: 'limit', message: 'limit must not be less than 1' }]],
      ['limit=17', [{ field: 'limit', message: 'limit must not be greater than 16' }]],
      ['limit=2.5', [{ field: 'limit', message: 'limit must be an integer number' }]],
      ['orderBy=size', [{ field: 'orderBy', message: 'orderBy must be one of the following values: id, name' }]],
      [
        'order=up&orderBy=size',
        [
          { field: 'orderBy', message: 'orderBy must be one of the following values: id, name' },
          { field: 'order', message: 'order must be one of the following values: asc, desc' },
        ],
      ],
      ['segment=4', [{ field: 'segment', message: 'property segment should not exist' }]],
    ])('answers ?%s with a 400 naming each bad field', async (query, errors) => {
      const res = await api.get(`${SEGMENTS}?${query}`, token);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        status: 'error',
        message: `Invalid parameters: ${[...new Set(errors.map((e) => e.field))].join(', ')}`,
        errors,
      });
    });
  });

  describe('GET /api/external/tidewatch/state/status', () => {
    it('says so with a 200 before any exchange state exists', async () => {
      const res = await api.get(STATE, token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 'success',
        data: { height: null, stateTime: null, processedAt: null, isLatestProcessed: false, lagSeconds: null },
        message: 'No exchange state has been processed yet.',
      });
    });

    it('reports the processed state, its lag, and whether a newer one is pending', async () => {
      const stateTime = new Date(Date.now() - 90_000);
      const processedAt = new Date(Date.now() - 30_000);
      await db.query(
        `INSERT INTO state_status (id, latest_height, latest_state_time, processed_height, processed_state_time, processed_at)
         VALUES (1, 812000, $1, 812000, $1, $2)`,
        [stateTime, processedAt],
      );
      const res = await api.get(STATE, token);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        height: 812000,
        stateTime: stateTime.toISOString(),
        processedAt: processedAt.toISOString(),
        isLatestProcessed: true,
        lagSeconds: expect.any(Number),
      });
      expect(Math.abs(res.body.data.lagSeconds - 90)).toBeLessThanOrEqual(2);
      expect(res.body.message).toBeUndefined();

      await db.query(`UPDATE state_status SET latest_height = 812100, latest_state_time = now() WHERE id = 1`);
      expect((await api.get(STATE, token)).body.data).toMatchObject({ height: 812000, isLatestProcessed: false });
    });

    it('rejects query fields it does not take', async () => {
      const res = await api.get(`${STATE}?verbose=1`, token);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'verbose', message: 'property verbose should not exist' }]);
    });

    it('answers a server fault with 500, a request id, and the cause logged under that id', async () => {
      const logged = jest.spyOn(JsonLogger.prototype, 'write');
      await db.query('ALTER TABLE state_status RENAME TO state_status_away');
      try {
        const res = await api.get(STATE, token);
        expect(res.status).toBe(500);
        expect(res.body).toEqual({ status: 'error', message: 'Internal error', requestId: res.headers['x-request-id'] });
        expect(logged).toHaveBeenCalledWith(
          'error',
          'request failed',
          expect.objectContaining({ requestId: res.headers['x-request-id'], error: expect.stringContaining('state_status') }),
        );
      } finally {
        await db.query('ALTER TABLE state_status_away RENAME TO state_status');
        logged.mockRestore();
      }
    });
  });

  it('answers an unknown path with 404', async () => {
    const res = await api.get('/api/external/nowhere', token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'error', message: 'Cannot GET /api/external/nowhere' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("echoes a caller's X-Request-Id and replaces one that is not a plain token", async () => {
    const echoed = await api.get(SEGMENTS, token).set('X-Request-Id', 'trace-4711.a');
    expect(echoed.headers['x-request-id']).toBe('trace-4711.a');
    const replaced = await api.get(SEGMENTS, token).set('X-Request-Id', 'no spaces <allowed>');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives every request an id of its own and does not name the server stack', async () => {
    const [first, second] = [await api.get(SEGMENTS, token), await api.get(SEGMENTS, token)];
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(first.headers['x-powered-by']).toBeUndefined();
  });

  it('answers a malformed JSON body with 400 naming the problem, and ignores a GET body', async () => {
    const malformed = await api.http
      .post(SEGMENTS)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/json')
      .send('{"limit": 5');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ status: 'error', message: expect.stringContaining('JSON') });
    const withBody = await api.http
      .get(SEGMENTS)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/json')
      .send('{"limit": 5');
    expect(withBody.status).toBe(200);
    expect(withBody.body).toHaveLength(16);
  });

  it('reports Postgres and Redis up on /health', async () => {
    const res = await api.http.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      checks: {
        postgres: { status: 'up', latencyMs: expect.any(Number) },
        redis: { status: 'up', latencyMs: expect.any(Number) },
      },
    });
  });

  it('counts requests by route and status on /metrics', async () => {
    const before = await api.http.get('/metrics');
    const count = (text: string) =>
      Number(
        /tidewatch_http_requests_total\{method="GET",route="\/api\/external\/segments",status="200",app="api"\} (\d+)/.exec(text)?.[1] ?? 0,
      );
    await api.get(SEGMENTS, token);
    await api.get(SEGMENTS, token);
    await new Promise((resolve) => setImmediate(resolve)); // the second response's finish event
    const after = await api.http.get('/metrics');
    expect(after.status).toBe(200);
    expect(after.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(count(after.text) - count(before.text)).toBe(2);
    expect(after.text).toContain('tidewatch_process_cpu_seconds_total');
  });

  it('documents every route with the bearer scheme in valid-shaped OpenAPI 3', async () => {
    const res = await api.http.get('/docs-json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info).toMatchObject({ title: 'Tidewatch API', version: '1' });
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    const external = [
      '/api/external/builders/list/timeframe/{timeframe}',
      '/api/external/builders/{builder}/profile',
      '/api/external/closed-trades',
      '/api/external/closed-trades/summary',
      '/api/external/coin/{coin}/open-positions/history',
      '/api/external/exports/coins/{coin}/liquidation-heatmap',
      '/api/external/exports/coins/{coin}/position-breakdown-by-size',
      '/api/external/exports/total-wallets-equity-chart-data',
      '/api/external/fills/liquidation',
      '/api/external/hype/holders',
      '/api/external/leaderboards/all-pnl',
      '/api/external/orders/5m-snapshots/latest',
      '/api/external/orders/5m-snapshots/latest-snapshot-timestamp',
      '/api/external/orders/5m-snapshots/{snapshotTime}',
      '/api/external/position-metrics/coin/{coin}',
      '/api/external/position-metrics/coin/{coin}/segment/{segment}',
      '/api/external/position-metrics/general',
      '/api/external/positions',
      '/api/external/positions/heatmap',
      '/api/external/positions/open/coin/{coin}',
      '/api/external/segments',
      '/api/external/segments/{segmentId}/summary',
      '/api/external/tidewatch/state/status',
      '/api/external/usage',
      '/api/external/wallets',
      '/api/external/{segmentId}/assets/liquidation-risk',
      '/api/favorites/accounts',
      '/api/segments/{segmentId}/summary',
      '/api/wallets/{address}',
    ];
    const accountWrites = '/api/favorites/accounts/{address}';
    const wsTickets = '/api/external/ws/tickets';
    // Alert management: every method of every path, each with the bearer scheme.
    const alerts: Record<string, string[]> = {
      '/events': ['get', 'post'],
      '/events/{id}': ['delete', 'get', 'patch'],
      '/events/{id}/pause': ['post'],
      '/events/{id}/resume': ['post'],
      '/events/endpoints': ['get', 'post'],
      '/events/endpoints/{id}': ['delete', 'get', 'patch'],
      '/events/endpoints/{id}/pause': ['post'],
      '/events/endpoints/{id}/resume': ['post'],
      '/events/endpoints/{id}/health': ['get'],
      '/events/endpoints/{id}/deliveries': ['get'],
      '/events/endpoints/{id}/replay': ['post'],
      '/events/deliveries/{deliveryId}/retry': ['post'],
    };
    expect(Object.keys(doc.paths).sort()).toEqual(
      [...external, ...Object.keys(alerts), accountWrites, wsTickets, '/exports/files/{kind}/{coin}/{file}', '/health', '/metrics'].sort(),
    );
    for (const [path, methods] of Object.entries(alerts)) {
      expect(Object.keys(doc.paths[path]).sort()).toEqual(methods);
      for (const method of methods) {
        expect(doc.paths[path][method].security).toEqual([{ bearer: [] }]);
        expect(doc.paths[path][method].tags).toEqual(['alerts']);
      }
    }
    expect(Object.keys(doc.paths[accountWrites]).sort()).toEqual(['delete', 'put']);
    for (const method of ['put', 'delete']) expect(doc.paths[accountWrites][method].security).toEqual([{ bearer: [] }]);
    expect(Object.keys(doc.paths[wsTickets])).toEqual(['post']);
    expect(doc.paths[wsTickets].post.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(doc.paths[wsTickets].post.responses)).toEqual(expect.arrayContaining(['201', '401', '403', '429', '500']));
    for (const path of external) {
      expect(doc.paths[path].get.security).toEqual([{ bearer: [] }]);
      const answer = path.includes('/exports/') || path.startsWith('/api/external/positions/open/') ? '302' : '200';
      expect(Object.keys(doc.paths[path].get.responses)).toEqual(expect.arrayContaining([answer, '400', '401', '429', '500']));
    }
    // A signed download link is its own credential.
    expect(doc.paths['/exports/files/{kind}/{coin}/{file}'].get.security).toBeUndefined();
    const segments = doc.paths['/api/external/segments'].get;
    expect(segments.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'query:orderBy',
      'query:order',
      'query:limit',
    ]);
    expect(segments.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/SegmentDto' },
    });
    expect(Object.keys(doc.components.schemas.SegmentDto.properties)).toEqual(['id', 'name', 'category', 'criteria', 'emoji']);
  });
});
