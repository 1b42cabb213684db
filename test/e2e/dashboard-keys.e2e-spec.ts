import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TokenUseRecorder } from '#auth';
import { claimsOf } from '../support/jwt.js';
import { ApiHarness } from '../support/api-harness.js';
import { DashboardClient } from '../support/dashboard-client.js';

const USAGE = '/api/external/usage';

describe('dashboard API keys', () => {
  let api: ApiHarness;
  let ada: DashboardClient;
  let bob: DashboardClient;

  beforeAll(async () => {
    api = await ApiHarness.start();
    ada = await DashboardClient.signedUp(api, 'ada@example.com');
    bob = await DashboardClient.signedUp(api, 'bob@example.com');
  });
  afterAll(() => api?.close());

  it('creates a key shown once, listed by label and tail, that the REST API accepts as the account', async () => {
    const before = Date.now();
    const created = await ada.post('keys', { label: 'reporting', expiresInDays: 30 });
    expect(created.status).toBe(201);
    const { token, ...key } = created.body;
    expect(key).toEqual({
      id: claimsOf(token).jti,
      label: 'reporting',
      tail: token.slice(-4),
      createdAt: expect.any(String),
      lastUsedAt: null,
      expiresAt: expect.any(String),
    });
    const days = (Date.parse(key.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(30);
    expect(days).toBeLessThan(30.01);

    const usage = await api.get(USAGE, token);
    expect(usage.status).toBe(200);
    // Ada signed up first: consumer 1, on the Free plan, with this request counted.
    expect(usage.body.data).toMatchObject({ consumerId: 1, plan: 'free', limit: 100, used: 1 });

    const usedBy = Date.now();
    // The time of use is written in batches; write this one now rather than wait for the next.
    await api.app.get(TokenUseRecorder).flush();
    const list = await ada.get('keys');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ ...key, lastUsedAt: expect.any(String) }]);
    const lastUsed = Date.parse(list.body[0].lastUsedAt);
    expect(lastUsed).toBeGreaterThanOrEqual(before);
    expect(lastUsed).toBeLessThanOrEqual(usedBy);
    expect(JSON.stringify(list.body)).not.toContain(token);
  });

  it('lists a key without expiry as never expiring, newest first', async () => {
    const created = await ada.post('keys', { label: 'forever' });
    expect([created.body.expiresAt, created.body.lastUsedAt]).toEqual([null, null]);
    expect((await ada.get('keys')).body.map((k: { label: string }) => k.label)).toEqual(['forever', 'reporting']);
  });

  it('refuses a key without a label, or with an expiry out of range (400), creating nothing', async () => {
    const noLabel = await ada.post('keys', { label: '' });
    expect(noLabel.status).toBe(400);
    expect(noLabel.body.errors).toEqual([{ field: 'label', message: 'label must be longer than or equal to 1 characters' }]);
    const tooLong = await ada.post('keys', { label: 'x', expiresInDays: 3651 });
    expect(tooLong.body.errors).toEqual([{ field: 'expiresInDays', message: 'expiresInDays must not be greater than 3650' }]);
    expect((await ada.get('keys')).body).toHaveLength(2);
  });

  it("keeps each account's keys invisible to the other: not listed, and revoking one is a 404 that changes nothing", async () => {
    const [adaKey] = (await ada.get('keys')).body;
    expect((await bob.get('keys')).body).toEqual([]);
    const theirs = await bob.delete(`keys/${adaKey.id}`);
    expect([theirs.status, theirs.body]).toEqual([404, { status: 'error', message: `no token with id ${adaKey.id}` }]);
    expect((await ada.get('keys')).body).toHaveLength(2);
    expect((await bob.delete('keys/not-a-uuid')).status).toBe(404);
  });

  it('revokes a key at once: gone from the list, and the REST API answers 401', async () => {
    const { token, id } = (await ada.post('keys', { label: 'doomed' })).body;
    expect((await api.get(USAGE, token)).status).toBe(200);
    const revoked = await ada.delete(`keys/${id}`);
    expect(revoked.status).toBe(204);
    expect((await ada.get('keys')).body.map((k: { id: string }) => k.id)).not.toContain(id);
    expect(await api.statusOnceRevoked(USAGE, token)).toBe(401);
    expect((await ada.delete(`keys/${id}`)).status).toBe(204);
  });

  it('answers 401 to every key route without a live session', async () => {
    const stranger = new DashboardClient(api);
    await stranger.open();
    expect((await stranger.get('keys')).status).toBe(401);
    expect((await stranger.post('keys', { label: 'x' })).status).toBe(401);
  });

  it("gives the signed-in account's usage tokens this period, as the REST API counts them", async () => {
    const fresh = await DashboardClient.signedUp(api, 'carol@example.com');
    const empty = await fresh.get('usage');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      consumerId: 3,
      plan: 'free',
      period: { start: expect.any(String), end: expect.any(String) },
      used: 0,
      limit: 100,
      remaining: 100,
      resetsAt: empty.body.period.end,
    });
    const { token } = (await fresh.post('keys', { label: 'counted' })).body;
    for (let i = 0; i < 3; i++) expect((await api.get(USAGE, token)).status).toBe(200);
    expect((await fresh.get('usage')).body).toMatchObject({ used: 3, remaining: 97 });
    const stranger = new DashboardClient(api);
    expect((await stranger.get('usage')).status).toBe(401);
  });
});
