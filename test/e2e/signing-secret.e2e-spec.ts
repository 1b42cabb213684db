import { afterAll, describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import pg from 'pg';
import { resetDatabase, TEST_JWT_SECRET, useTestEnvironment } from '#testing';
import { ApiHarness } from '../support/api-harness.js';
import { run, type Run } from '../support/app-process.js';
import { claimsOf, purposeKey, signHs256 } from '../support/jwt.js';

// Without JWT_SECRET the service generates its secret once and keeps it in Postgres (docs/decisions.md,
// "Authentication"); every key it signs with is derived from that secret or JWT_SECRET, one per purpose.

const SEGMENTS = '/api/external/segments';
/** An empty JWT_SECRET is no JWT_SECRET: the setting is read as unset. */
const WITHOUT_SECRET = { JWT_SECRET: '' };

async function storedSecrets(databaseUrl: string): Promise<Array<{ secret: Buffer; created_at: Date }>> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return (await db.query('SELECT secret, created_at FROM signing_secret')).rows;
  } finally {
    await db.end();
  }
}

/** The HS256 signature of `token`, recomputed with `key`. */
const resigned = (token: string, key: Buffer) => signHs256(claimsOf(token), key).split('.')[2];

describe('the secret generated without JWT_SECRET', () => {
  it('is 256 random bits kept in Postgres; tokens are signed with its tokens key and still work after a restart', async () => {
    const first = await ApiHarness.start({ env: WITHOUT_SECRET });
    let token: string;
    try {
      ({ token } = await first.createConsumer({ name: 'before restart' }));
      expect((await first.get(SEGMENTS, token)).status).toBe(200);
    } finally {
      await first.close();
    }
    const [stored, ...more] = await storedSecrets(first.config.DATABASE_URL);
    expect(more).toEqual([]);
    expect(stored!.secret).toHaveLength(32);
    expect(token.split('.')[2]).toBe(resigned(token, purposeKey(stored!.secret, 'tokens')));
    expect(token.split('.')[2]).not.toBe(resigned(token, purposeKey(TEST_JWT_SECRET, 'tokens')));

    const second = await ApiHarness.start({ env: WITHOUT_SECRET, reset: false });
    try {
      expect((await second.get(SEGMENTS, token)).status).toBe(200);
    } finally {
      await second.close();
    }
    expect(await storedSecrets(first.config.DATABASE_URL)).toEqual([stored]);
  });

  it('is the same for processes started together on an empty database: tokens each issued are accepted by another', async () => {
    const config = useTestEnvironment(WITHOUT_SECRET);
    await resetDatabase(config.DATABASE_URL);
    const creators = ['one', 'two', 'three'].map((name) =>
      run('cli', WITHOUT_SECRET, ['consumer', 'create', '--name', name, '--plan', 'tier1']),
    );
    expect(await Promise.all(creators.map((c) => c.exited))).toEqual([0, 0, 0]);
    // stdout's one JSON answer, among the start-up log lines of stderr.
    const tokens = creators.map((c) => JSON.parse(c.output().match(/^\{"consumerId".*$/m)![0]).token as string);
    const [stored, ...more] = await storedSecrets(config.DATABASE_URL);
    expect(more).toEqual([]);
    for (const token of tokens) expect(token.split('.')[2]).toBe(resigned(token, purposeKey(stored!.secret, 'tokens')));

    const api = await ApiHarness.start({ env: WITHOUT_SECRET, reset: false });
    try {
      for (const token of tokens) expect((await api.get(SEGMENTS, token)).status).toBe(200);
    } finally {
      await api.close();
    }
  });
});

describe('settings of the secret, checked at start', () => {
  const started: Run[] = [];
  afterAll(() => {
    for (const r of started) if (r.child.exitCode === null) r.child.kill('SIGKILL');
  });
  const start = (app: string, env: Record<string, string>, args: string[] = []) => {
    const r = run(app, env, args);
    started.push(r);
    return r;
  };

  it('refuses to start with NODE_ENV=production and no JWT_SECRET, naming the setting, and generates nothing', async () => {
    const config = useTestEnvironment();
    await resetDatabase(config.DATABASE_URL);
    const api = start('api', { NODE_ENV: 'production', ...WITHOUT_SECRET, PORT: '39891' });
    expect(await api.exited).toBe(1);
    expect(api.output()).toContain(
      'tidewatch: Invalid settings:\n  JWT_SECRET=undefined: JWT_SECRET is required when NODE_ENV=production (a secret of your own, ' +
        'the same for every process of the deployment); generate one with `openssl rand -base64 48`\n',
    );
    expect(await storedSecrets(config.DATABASE_URL)).toEqual([]);
    // With a secret of its own, production starts.
    const migrate = start('cli', { NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-40-bytes-or-so!!' }, ['migrate']);
    expect(await migrate.exited).toBe(0);
    expect(migrate.output()).toContain('{"migrated":true}');
  });

  it('refuses a JWT_SECRET shorter than 32 bytes without printing it', async () => {
    const secret = 'almost-long-enough-secret-31-by';
    expect(Buffer.byteLength(secret)).toBe(31);
    const api = start('api', { JWT_SECRET: secret, PORT: '39892' });
    expect(await api.exited).toBe(1);
    expect(api.output()).toContain(
      'tidewatch: Invalid settings:\n  JWT_SECRET=(hidden): JWT_SECRET must be at least 32 bytes; generate one with `openssl rand -base64 48`\n',
    );
    expect(api.output()).not.toContain('almost-long');
    expect(api.output()).not.toContain('secret-31');
  });
});

describe('one key per purpose', () => {
  let api: ApiHarness;
  afterAll(() => api.close());
  const keys = {
    tokens: purposeKey(TEST_JWT_SECRET, 'tokens'),
    listCursors: purposeKey(TEST_JWT_SECRET, 'list cursors'),
    exportLinks: purposeKey(TEST_JWT_SECRET, 'export links'),
  };

  it('accepts a token signed with the tokens key only', async () => {
    api = await ApiHarness.start();
    const { token } = await api.createConsumer({ name: 'purposes' });
    const claims = claimsOf(token);
    expect(token).toBe(signHs256(claims, keys.tokens));
    expect((await api.get(SEGMENTS, signHs256(claims, keys.listCursors))).status).toBe(401);
    expect((await api.get(SEGMENTS, signHs256(claims, keys.exportLinks))).status).toBe(401);
    expect((await api.get(SEGMENTS, signHs256(claims, keys.tokens))).status).toBe(200);
  });

  it('accepts a list cursor signed with the list cursors key only', async () => {
    const { token } = await api.createConsumer({ name: 'cursors' });
    const payload = Buffer.from(JSON.stringify([Date.UTC(2026, 0, 1)])).toString('base64url');
    const cursor = (key: Buffer) =>
      `${payload}.${createHmac('sha256', key).update(`position-metrics-general\0${payload}`).digest().subarray(0, 16).toString('base64url')}`;
    const page = (key: Buffer) => api.get(`/api/external/position-metrics/general?nextCursor=${cursor(key)}`, token);
    const message = 'nextCursor is not a cursor this list issued (signature does not match); start again without it';
    const refused = { status: 'error', message: 'Invalid parameters: nextCursor', errors: [{ field: 'nextCursor', message }] };
    for (const key of [keys.tokens, keys.exportLinks, Buffer.from(TEST_JWT_SECRET)]) {
      const res = await page(key);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(refused);
    }
    expect((await page(keys.listCursors)).status).toBe(200);
  });

  it('accepts an export link signed with the export links key only', async () => {
    const key = 'liquidation-heatmap/BTC/200.json';
    const expires = Math.floor(Date.now() / 1000) + 60;
    const link = (signingKey: Buffer) =>
      `/exports/files/${key}?expires=${expires}&signature=${createHmac('sha256', signingKey).update(`${key}\n${expires}`).digest('hex')}`;
    for (const signingKey of [keys.tokens, keys.listCursors, Buffer.from(TEST_JWT_SECRET)]) {
      const res = await api.http.get(link(signingKey));
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ status: 'error', message: 'This download link is not valid: ask the export route for a new one' });
    }
    // The signature holds; the file was never built.
    const genuine = await api.http.get(link(keys.exportLinks));
    expect(genuine.status).toBe(404);
    expect(genuine.body).toEqual({ status: 'error', message: 'This export file no longer exists: ask the export route for a new one' });
  });
});
