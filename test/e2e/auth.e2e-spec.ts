import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConsumerService } from '#auth';
import { TEST_JWT_SECRET } from '#testing';
import { ApiHarness } from '../support/api-harness.js';
import { claimsOf, signHs256, tamper, unsignedToken } from '../support/jwt.js';

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
    await expect401(`Bearer ${signHs256({ ...claims, exp: now - 60 }, TEST_JWT_SECRET)}`);
    const fresh = await api.get(SEGMENTS, signHs256({ ...claims, exp: now + 600 }, TEST_JWT_SECRET));
    expect(fresh.status).toBe(200);
  });

  it('refuses a well-signed token of a consumer that does not exist', () =>
    expect401(`Bearer ${signHs256({ sub: '987654', jti: '00000000-0000-4000-8000-000000000000' }, TEST_JWT_SECRET)}`));

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
