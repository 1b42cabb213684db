import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ConsumerService } from '#auth';
import { TEST_JWT_SECRET } from '#testing';
import { ApiHarness } from '../support/api-harness.js';
import { claimsOf, signHs256, tamper, TEST_TOKEN_KEY, unsignedToken } from '../support/jwt.js';

const UNAUTHORIZED = { status: 'error', message: 'Unauthorized' };
const SEGMENTS = '/api/external/segments';

describe('bearer token authentication', () => {
  let api: ApiHarness;
  let consumerId: number;
  let token: string;

  beforeAll(async () => {
    api = await ApiHarness.start();
    ({ consumerId, token } = await api.createConsumer({ name: 'auth-suite' }));
  });
  afterAll(() => api.close());

  it('accepts the token issued to a consumer', async () => {
    const res = await api.get(SEGMENTS, token);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(16);
    expect(claimsOf(token)).toMatchObject({ sub: String(consumerId) });
  });

  const expect401 = async (authorization: string | undefined) => {
    const call = api.http.get(SEGMENTS);
    if (authorization !== undefined) call.set('Authorization', authorization);
    const res = await call;
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // A refused request is not accounted: no rate-limit headers.
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  };

  it('refuses a request without Authorization', () => expect401(undefined));
  it('refuses a non-bearer scheme', () => expect401(`Basic ${Buffer.from('user:pass').toString('base64')}`));
  it('refuses an empty bearer token', () => expect401('Bearer '));
  it('refuses a token that is not a JWT', () => expect401('Bearer not-a-jwt'));

  it('refuses a tampered token (claims changed, signature kept)', async () => {
    const other = await api.createConsumer({ name: 'victim' });
    await expect401(`Bearer ${tamper(token, { sub: String(other.consumerId) })}`);
  });

  it('refuses a token signed with another secret', () =>
    expect401(`Bearer ${signHs256({ sub: String(consumerId), jti: claimsOf(token).jti }, 'some-other-secret-of-enough-length')}`));

  it('refuses an alg:none token', () => expect401(`Bearer ${unsignedToken({ sub: String(consumerId), jti: claimsOf(token).jti })}`));

  it('refuses an expired token, accepts the same claims unexpired', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: String(consumerId), jti: claimsOf(token).jti, iat: now - 120 };
    await expect401(`Bearer ${signHs256({ ...claims, exp: now - 60 }, TEST_TOKEN_KEY)}`);
    const fresh = await api.get(SEGMENTS, signHs256({ ...claims, exp: now + 600 }, TEST_TOKEN_KEY));
    expect(fresh.status).toBe(200);
  });

  it('refuses a token signed with JWT_SECRET itself (the scheme before per-purpose keys), accepts it signed with the tokens key', async () => {
    const claims = { sub: String(consumerId), jti: claimsOf(token).jti };
    await expect401(`Bearer ${signHs256(claims, TEST_JWT_SECRET)}`);
    expect((await api.get(SEGMENTS, signHs256(claims, TEST_TOKEN_KEY))).status).toBe(200);
  });

  it('refuses a well-signed token whose id was never issued, or is not a token id at all', async () => {
    await expect401(`Bearer ${signHs256({ sub: String(consumerId), jti: randomUUID() }, TEST_TOKEN_KEY)}`);
    await expect401(`Bearer ${signHs256({ sub: String(consumerId), jti: 'not-a-uuid' }, TEST_TOKEN_KEY)}`);
  });

  it("refuses a well-signed token naming one consumer and carrying another consumer's token id", async () => {
    const other = await api.createConsumer({ name: 'other' });
    const mine = claimsOf(token).jti;
    const theirs = claimsOf(other.token).jti;
    await expect401(`Bearer ${signHs256({ sub: String(consumerId), jti: theirs }, TEST_TOKEN_KEY)}`);
    await expect401(`Bearer ${signHs256({ sub: String(other.consumerId), jti: mine }, TEST_TOKEN_KEY)}`);
    expect((await api.get(SEGMENTS, signHs256({ sub: String(other.consumerId), jti: theirs }, TEST_TOKEN_KEY))).status).toBe(200);
  });

  it('refuses a well-signed token of a consumer that does not exist', () =>
    expect401(`Bearer ${signHs256({ sub: '987654', jti: claimsOf(token).jti }, TEST_TOKEN_KEY)}`));

  it('refuses a token revoked in Postgres that no announcement reached, while an unrevoked one passes', async () => {
    const consumers = api.app.get(ConsumerService);
    const doomed = await consumers.issueToken(consumerId, { label: 'revoked behind the api' });
    const kept = await consumers.issueToken(consumerId, { label: 'kept' });
    // Revoked by hand: no Redis announcement, so only the check of the id in Postgres can refuse it.
    await api.app.get(DataSource).query(`UPDATE api_tokens SET revoked_at = now() WHERE id = $1`, [doomed.tokenId]);
    await expect401(`Bearer ${doomed.token}`);
    expect((await api.get(SEGMENTS, kept.token)).status).toBe(200);
  });

  it('reads a token id from Postgres on its first request, then serves the token from memory', async () => {
    const fresh = await api.app.get(ConsumerService).issueToken(consumerId, { label: 'counted' });
    const dataSource = api.app.get(DataSource);
    const lookups: string[] = [];
    dataSource.subscribers.push({
      beforeQuery: (event: { query: string }) => void (/FROM api_tokens WHERE id =/.test(event.query) && lookups.push(event.query)),
    });
    try {
      for (let i = 0; i < 5; i++) expect((await api.get(SEGMENTS, fresh.token)).status).toBe(200);
      expect(lookups).toHaveLength(1);
    } finally {
      dataSource.subscribers.pop();
    }
  });

  it('refuses a revoked token while other tokens of the consumer keep working', async () => {
    const consumers = api.app.get(ConsumerService);
    const doomed = await consumers.issueToken(consumerId, { label: 'to revoke' });
    expect((await api.get(SEGMENTS, doomed.token)).status).toBe(200);

    const revoked = await consumers.revokeToken(doomed.tokenId);
    expect(revoked).toMatchObject({ tokenId: doomed.tokenId, consumerId });

    // The revocation reaches the api through Redis pub/sub; wait for it rather than assume it.
    let status = 200;
    for (let i = 0; i < 50 && status !== 401; i++) {
      status = (await api.get(SEGMENTS, doomed.token)).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 50));
    }
    await expect401(`Bearer ${doomed.token}`);
    expect((await api.get(SEGMENTS, token)).status).toBe(200);
  });

  it('serves health, metrics and the API docs without a token', async () => {
    expect((await api.http.get('/health')).status).toBe(200);
    expect((await api.http.get('/metrics')).status).toBe(200);
    expect((await api.http.get('/docs-json')).status).toBe(200);
    const docs = await api.http.get('/docs/');
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('swagger-ui');
  });
});

describe('a token check that cannot reach Postgres', () => {
  let api: ApiHarness;
  afterAll(() => api.close());

  it('answers a 500, not a 401 telling the client to drop a good token; a token already checked still passes', async () => {
    api = await ApiHarness.start();
    const { consumerId, token } = await api.createConsumer({ name: 'outage' });
    const unseen = await api.app.get(ConsumerService).issueToken(consumerId, { label: 'never checked' });
    expect((await api.get(SEGMENTS, token)).status).toBe(200);
    await api.app.get(DataSource).destroy(); // this api's pool only: the server keeps running for everyone else
    const refused = await api.get(SEGMENTS, unseen.token);
    expect(refused.status).toBe(500);
    expect(refused.body).toEqual({ status: 'error', message: 'Internal error', requestId: refused.headers['x-request-id'] });
    expect((await api.get(SEGMENTS, token)).status).toBe(200);
  });
});
