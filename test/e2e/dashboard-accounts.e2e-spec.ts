import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ATTEMPTS_PER_ACCOUNT, ATTEMPTS_PER_ADDRESS, SIGN_IN_WINDOW_SECONDS, SignInLimiterService } from '#auth';
import { JsonLogger } from '#runtime';
import { ApiHarness } from '../support/api-harness.js';
import { DashboardClient } from '../support/dashboard-client.js';

const PASSWORD = 'correct horse battery';
const CSRF_REFUSED = { status: 'error', message: 'CSRF token missing or wrong: reload the page and try again' };

/** Each cookie the response sets, by name, with its attributes as sent. */
const setCookies = (res: request.Response) =>
  Object.fromEntries(([] as string[]).concat(res.headers['set-cookie'] ?? []).map((c) => [c.split('=')[0], c]));

describe('dashboard accounts: sign-up, sign-in, sessions and CSRF', () => {
  let api: ApiHarness;
  let db: DataSource;
  const count = async (table: string) => Number((await db.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n);

  beforeAll(async () => {
    api = await ApiHarness.start();
    db = api.app.get(DataSource);
  });
  afterAll(() => api?.close());

  it('hands out a CSRF token in an httpOnly SameSite=Strict cookie, and no account before sign-in', async () => {
    const client = new DashboardClient(api);
    const res = await client.open();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ account: null, csrfToken: expect.stringMatching(/^[\w-]{43}$/) });
    expect(setCookies(res).tw_csrf).toBe(`tw_csrf=${res.body.csrfToken}; Path=/; HttpOnly; SameSite=Strict`);
    // The same browser keeps its token.
    expect((await client.open()).body.csrfToken).toBe(res.body.csrfToken);
  });

  it('signs up a Free-plan consumer named by the email, stores an argon2id hash and never returns the password', async () => {
    const client = new DashboardClient(api);
    await client.open();
    const res = await client.post('sign-up', { email: '  Ada@Example.com ', password: PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ email: 'ada@example.com', plan: 'free' });
    expect(setCookies(res).tw_session).toMatch(/^tw_session=[\w-]{43}; Max-Age=604800; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/);
    const [row] = await db.query(
      `SELECT a.email, a.password_hash, c.name, c.plan FROM dashboard_accounts a JOIN consumers c ON c.id = a.consumer_id`,
    );
    expect(row).toEqual({
      email: 'ada@example.com',
      password_hash: expect.stringMatching(/^\$argon2id\$v=19\$/),
      name: 'ada@example.com',
      plan: 'free',
    });
    expect(await count('api_tokens')).toBe(0);
    expect((await client.open()).body.account).toEqual({ email: 'ada@example.com', plan: 'free' });
  });

  it('refuses a taken email (409), a short password and a malformed email (400), creating nothing', async () => {
    const client = new DashboardClient(api);
    await client.open();
    const before = [await count('consumers'), await count('dashboard_accounts')];
    const taken = await client.post('sign-up', { email: 'ADA@example.com', password: 'another long password' });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ status: 'error', message: 'an account with this email already exists; sign in instead' });
    const short = await client.post('sign-up', { email: 'bob@example.com', password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual([{ field: 'password', message: 'password must be 12 to 256 characters' }]);
    const malformed = await client.post('sign-up', { email: 'not an email', password: PASSWORD });
    expect(malformed.body.errors).toEqual([{ field: 'email', message: 'email must be an email address' }]);
    expect([await count('consumers'), await count('dashboard_accounts')]).toEqual(before);
  });

  it('refuses a state-changing request without the CSRF token, or with another browser’s (403), changing nothing', async () => {
    const client = new DashboardClient(api);
    await client.open();
    const other = new DashboardClient(api);
    await other.open();
    const before = await count('dashboard_accounts');
    const bare = await client.agent.post('/dashboard/api/sign-up').send({ email: 'eve@example.com', password: PASSWORD });
    expect([bare.status, bare.body]).toEqual([403, CSRF_REFUSED]);
    const foreign = await client.agent
      .post('/dashboard/api/sign-up')
      .set('X-CSRF-Token', other.csrf)
      .send({ email: 'eve@example.com', password: PASSWORD });
    expect([foreign.status, foreign.body]).toEqual([403, CSRF_REFUSED]);
    // No cookie at all: a request from a page that never loaded the dashboard.
    const cookieless = await request(api.app.getHttpServer())
      .post('/dashboard/api/sign-in')
      .set('X-CSRF-Token', client.csrf)
      .send({ email: 'ada@example.com', password: PASSWORD });
    expect([cookieless.status, cookieless.body]).toEqual([403, CSRF_REFUSED]);
    expect(await count('dashboard_accounts')).toBe(before);

    const signedIn = await DashboardClient.signedUp(api, 'csrf@example.com');
    const key = await signedIn.agent.post('/dashboard/api/keys').send({ label: 'forged' });
    expect([key.status, key.body]).toEqual([403, CSRF_REFUSED]);
    const signOut = await signedIn.agent.post('/dashboard/api/sign-out');
    expect(signOut.status).toBe(403);
    expect((await signedIn.get('keys')).status).toBe(200);
    expect(await count('api_tokens')).toBe(0);
  });

  it('signs in with the right password only, with one message whether or not the email exists', async () => {
    const client = new DashboardClient(api);
    await client.open();
    const wrong = await client.post('sign-in', { email: 'ada@example.com', password: 'wrong password!' });
    const nobody = await client.post('sign-in', { email: 'nobody@example.com', password: PASSWORD });
    for (const res of [wrong, nobody])
      expect([res.status, res.body]).toEqual([401, { status: 'error', message: 'Email or password is wrong' }]);
    expect((await client.get('keys')).status).toBe(401);
    const right = await client.post('sign-in', { email: 'Ada@example.com', password: PASSWORD });
    expect([right.status, right.body]).toEqual([200, { email: 'ada@example.com', plan: 'free' }]);
    expect((await client.get('keys')).status).toBe(200);
  });

  it('ends the session at sign-out: the old cookie, replayed, is refused', async () => {
    const client = await DashboardClient.signedUp(api, 'leaver@example.com');
    const cookie = client.sessionCookie;
    const out = await client.post('sign-out');
    expect(out.status).toBe(204);
    expect(setCookies(out).tw_session).toMatch(/^tw_session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/);
    expect((await client.open()).body.account).toBeNull();
    const replayed = await request(api.app.getHttpServer()).get('/dashboard/api/keys').set('Cookie', cookie);
    expect([replayed.status, replayed.body]).toEqual([401, { status: 'error', message: 'Unauthorized' }]);
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM dashboard_sessions s JOIN dashboard_accounts a ON a.id = s.account_id WHERE a.email = $1`,
      ['leaver@example.com'],
    );
    expect(n).toBe(0);
  });

  it('never writes a password to the log', async () => {
    const logger = api.app.get(JsonLogger);
    const lines = [jest.spyOn(logger, 'write'), jest.spyOn(logger, 'writeRaw')];
    try {
      const secret = 'a password nobody may log';
      const client = new DashboardClient(api);
      await client.open();
      await client.post('sign-up', { email: 'quiet@example.com', password: secret });
      await client.post('sign-in', { email: 'quiet@example.com', password: secret });
      await client.post('sign-in', { email: 'quiet@example.com', password: `${secret}!` });
      await client.post('sign-up', { email: 'quiet@example.com', password: secret, extra: 1 });
      const logged = JSON.stringify(lines.flatMap((spy) => spy.mock.calls));
      expect(logged).not.toContain('nobody may log');
    } finally {
      for (const spy of lines) spy.mockRestore();
    }
  });

  it(`allows ${ATTEMPTS_PER_ACCOUNT} sign-in attempts per account in ${SIGN_IN_WINDOW_SECONDS / 60} min, then answers 429 even to the right password`, async () => {
    await DashboardClient.signedUp(api, 'target@example.com');
    const client = new DashboardClient(api);
    await client.open();
    for (let i = 0; i < ATTEMPTS_PER_ACCOUNT; i++) {
      expect((await client.post('sign-in', { email: 'target@example.com', password: `guess number ${i}` })).status).toBe(401);
    }
    const refused = await client.post('sign-in', { email: 'TARGET@example.com', password: PASSWORD });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      status: 'error',
      message: expect.stringMatching(/^Too many sign-in attempts; try again in \d+ min\.$/),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(SIGN_IN_WINDOW_SECONDS);
    expect(setCookies(refused).tw_session).toBeUndefined();
  });

  it(`allows ${ATTEMPTS_PER_ADDRESS} sign-in attempts per address across accounts, then refuses until the window ends`, async () => {
    const limiter = api.app.get(SignInLimiterService);
    const windowStart = Math.floor(Date.now() / 1000 / SIGN_IN_WINDOW_SECONDS) * SIGN_IN_WINDOW_SECONDS * 1000;
    for (let i = 0; i < ATTEMPTS_PER_ADDRESS; i++) await limiter.attempt(`spray${i}@example.com`, '203.0.113.9', windowStart + 1000);
    await expect(limiter.attempt('fresh@example.com', '203.0.113.9', windowStart + 2000)).rejects.toMatchObject({
      retryAfterSeconds: SIGN_IN_WINDOW_SECONDS - 2,
    });
    // Another address, and the same one in the next window, are let through.
    await limiter.attempt('fresh@example.com', '203.0.113.10', windowStart + 2000);
    await limiter.attempt('fresh@example.com', '203.0.113.9', windowStart + SIGN_IN_WINDOW_SECONDS * 1000);
  });
});
