import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { ApiHarness } from '../support/api-harness.js';

/** `{"a": {"a": ... 1}}` with `levels` objects. */
const nested = (levels: number): object => {
  let body: object = { a: 1 };
  for (let i = 1; i < levels; i++) body = { a: body };
  return body;
};

const TOO_DEEP = { status: 'error', message: 'Request body nests deeper than 8 levels of objects and arrays' };
const badParameter = (field: string, message: string) => ({
  status: 'error',
  message: `Invalid parameters: ${field}`,
  errors: [{ field, message }],
});

describe('input limits: body depth and path values', () => {
  let api: ApiHarness;
  let token: string;
  let db: pg.Client;
  const post = (path: string) => api.http.post(path).set('Authorization', `Bearer ${token}`);
  const count = async (table: string) => (await db.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n as number;

  beforeAll(async () => {
    api = await ApiHarness.start();
    ({ token } = await api.createConsumer({ name: 'limits-suite' }));
    db = new pg.Client({ connectionString: api.config.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await api.close();
  });

  describe('request body depth', () => {
    it('refuses a body of 9 levels with a 400 naming the limit, before validation, and stores nothing', async () => {
      const endpoint = await post('/events/endpoints').send({ url: 'https://hooks.example.com/depth' });
      expect(endpoint.status).toBe(201);
      const rulesBefore = await count('alert_rules');
      // A valid rule but for one filter nested 9 levels deep (body, filters, amount, then 6 more).
      const deep = { eventType: 'ledger_update', webhookEndpointId: endpoint.body.data.id, filters: { amount: { gte: nested(7) } } };
      const res = await post('/events').send(deep);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(TOO_DEEP);
      // Arrays count as levels too, and the limit holds without a token: the parser runs first.
      const arrays = await api.http.patch('/events/endpoints/1').send(JSON.parse(`{"url":${'['.repeat(8)}1${']'.repeat(8)}}`));
      expect(arrays.status).toBe(400);
      expect(arrays.body).toEqual(TOO_DEEP);
      expect(await count('alert_rules')).toBe(rulesBefore);
    });

    it('passes a body of exactly 8 levels on to validation, which names the field', async () => {
      const res = await post('/events/endpoints').send({ url: nested(7) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badParameter('url', "url is required: the receiver's https:// address"));
    });

    it('survives a 90 KB body of brackets with the same 400', async () => {
      const res = await post('/events')
        .set('Content-Type', 'application/json')
        .send(`${'['.repeat(45_000)}${']'.repeat(45_000)}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(TOO_DEEP);
    });
  });

  describe('path and query values', () => {
    const coinRoutes = (coin: string) => [
      `/api/external/position-metrics/coin/${coin}`,
      `/api/external/position-metrics/coin/${coin}/segment/1`,
      `/api/external/coin/${coin}/open-positions/history`,
      `/api/external/exports/coins/${coin}/liquidation-heatmap`,
      `/api/external/exports/coins/${coin}/position-breakdown-by-size`,
      `/api/external/positions/open/coin/${coin}`,
    ];

    it.each([
      ['41 characters', 'A'.repeat(41), 'coin must be at most 40 characters'],
      ['a space', 'BTC%20', 'coin may hold only letters, digits and : @ / _ . -'],
      ['a quote', "BTC'", 'coin may hold only letters, digits and : @ / _ . -'],
      ['a NUL', 'BTC%00', 'coin may hold only letters, digits and : @ / _ . -'],
      ['an emoji', encodeURIComponent('🐋'), 'coin may hold only letters, digits and : @ / _ . -'],
    ])('answers a coin with %s with a 400 naming coin on every coin route', async (_, coin, message) => {
      for (const path of coinRoutes(coin)) {
        const res = await api.get(path, token);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: badParameter('coin', message) });
      }
    });

    // The same checks on the `coin` filter of the lists, so a query never carries an arbitrary string either.
    const coinFilterRoutes = (coin: string) => [
      `/api/external/orders/5m-snapshots/latest?coin=${coin}`,
      `/api/external/fills/liquidation?coin=${coin}`,
      `/api/external/positions?coin=${coin}`,
    ];

    it.each([
      ['41 characters', 'A'.repeat(41), 'coin must be at most 40 characters'],
      ['a quote', "BTC'", 'coin may hold only letters, digits and : @ / _ . -'],
      ['a NUL', 'BTC%00', 'coin may hold only letters, digits and : @ / _ . -'],
      ['nothing', '', 'coin should not be empty'],
      ['two values', 'BTC&coin=ETH', 'coin must be a string'],
    ])('answers a coin filter with %s with a 400 naming coin on every list', async (_, coin, message) => {
      for (const path of coinFilterRoutes(coin)) {
        const res = await api.get(path, token);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: badParameter('coin', message) });
      }
    });

    it("lets Hyperliquid's own market names through to the lookup (an unknown one is a 404)", async () => {
      for (const coin of ['BTC', 'xyz:TSLA', '@107', 'PURR%2FUSDC', 'kPEPE', 'A'.repeat(40)]) {
        for (const path of coinRoutes(coin)) {
          const res = await api.get(path, token);
          expect({ path, status: res.status }).toEqual({ path, status: 404 });
          expect(res.body).toEqual({ status: 'error', message: expect.any(String) });
        }
      }
    });

    it('answers a malformed address, id or time in a path with a 400 naming it', async () => {
      const cases: Array<[string, string, string]> = [
        ['/api/wallets/0x1234', 'address', 'address must be 0x followed by 40 hex digits'],
        [`/api/wallets/0x${'g'.repeat(40)}`, 'address', 'address must be 0x followed by 40 hex digits'],
        [`/api/external/builders/0x${'a'.repeat(41)}/profile`, 'builder', 'builder must be a 0x address of 40 hex digits'],
        ['/events/1e3', 'id', 'id must be an integer number'],
        ['/events/endpoints/2147483648', 'id', 'id must not be greater than 2147483647'],
        [`/api/external/orders/5m-snapshots/${'2'.repeat(41)}`, 'snapshotTime', 'snapshotTime must be at most 40 characters'],
      ];
      for (const [path, field, message] of cases) {
        const res = await api.get(path, token);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: badParameter(field, message) });
      }
      const favorite = await api.http.put(`/api/favorites/accounts/0x${'a'.repeat(39)}`).set('Authorization', `Bearer ${token}`);
      expect(favorite.body).toEqual(badParameter('address', 'address must be 0x followed by 40 hex digits'));
      expect(await count('consumer_favorites')).toBe(0);
    });
  });
});
