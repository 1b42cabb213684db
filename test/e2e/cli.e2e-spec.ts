import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { UsageMeterService } from '#auth';
import { ApiHarness } from '../support/api-harness.js';
import { claimsOf } from '../support/jwt.js';

// The CLI as a user runs it: the built entry point in its own process (`npm test` builds first).
const CLI = fileURLToPath(new URL('../../dist/apps/cli/src/main.js', import.meta.url));

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: process.env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('npm run cli', () => {
  let api: ApiHarness;
  let db: pg.Client;

  beforeAll(async () => {
    api = await ApiHarness.start(); // also points process.env (inherited by the CLI) at this worker's database
    db = new pg.Client({ connectionString: api.config.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await api.close();
  });

  it('creates a consumer and prints a token that works, issues and revokes further tokens, and reports usage', async () => {
    const created = await cli('consumer', 'create', '--name', 'Quant Desk', '--plan', 'tier2');
    expect(created.code).toBe(0);
    const { consumerId, token } = JSON.parse(created.stdout);
    expect(Object.keys(JSON.parse(created.stdout)).sort()).toEqual(['consumerId', 'token']);
    expect((await db.query('SELECT name, plan FROM consumers WHERE id = $1', [consumerId])).rows).toEqual([
      { name: 'Quant Desk', plan: 'tier2' },
    ]);

    const ok = await api.get('/api/external/segments', token);
    expect(ok.status).toBe(200);
    expect(ok.headers['x-ratelimit-limit']).toBe('100'); // Tier 2

    const issued = await cli('token', 'issue', '--consumer', String(consumerId), '--label', 'bot', '--expires-in', '3600');
    expect(issued.code).toBe(0);
    const second = JSON.parse(issued.stdout);
    expect(second).toMatchObject({ consumerId, tokenId: expect.any(String), token: expect.any(String) });
    const claims = claimsOf(second.token);
    expect(claims.jti).toBe(second.tokenId);
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);
    expect(new Date(second.expiresAt).getTime() / 1000).toBeCloseTo(Number(claims.exp), -1);
    expect((await api.get('/api/external/segments', second.token)).status).toBe(200);

    const revoked = await cli('token', 'revoke', '--token-id', second.tokenId);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ tokenId: second.tokenId, consumerId, revokedAt: expect.any(String) });
    let status = 200;
    for (let i = 0; i < 50 && status !== 401; i++) {
      status = (await api.get('/api/external/segments', second.token)).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
    expect((await api.get('/api/external/segments', token)).status).toBe(200);

    await api.app.get(UsageMeterService).flush();
    const usage = await cli('consumer', 'usage', '--consumer', String(consumerId));
    expect(usage.code).toBe(0);
    const now = new Date();
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
    // Three 200s: the first token twice, the second token once; the 401s spent nothing.
    expect(JSON.parse(usage.stdout)).toEqual({
      consumerId,
      plan: 'tier2',
      period: { start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(), end },
      used: 3,
      limit: 150000,
      remaining: 149997,
      resetsAt: end,
    });
  });

  it('refuses an unknown plan with a clear message and creates nothing', async () => {
    const before = (await db.query('SELECT count(*)::int AS n FROM consumers')).rows[0].n;
    const result = await cli('consumer', 'create', '--name', 'x', '--plan', 'gold');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr.trim().split('\n').pop()!)).toEqual({ error: 'plan must be one of free, tier1, tier2, tier3, tier4' });
    expect((await db.query('SELECT count(*)::int AS n FROM consumers')).rows[0].n).toBe(before);
  });

  it('creates no account when its token cannot be stored: the account and its first token commit together', async () => {
    const before = (await db.query('SELECT count(*)::int AS n FROM consumers')).rows[0].n;
    // A fault between the two inserts: the tokens table is out of reach while the command runs.
    await db.query('ALTER TABLE api_tokens RENAME TO api_tokens_away');
    try {
      const result = await cli('consumer', 'create', '--name', 'Half Made', '--plan', 'tier1');
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
    } finally {
      await db.query('ALTER TABLE api_tokens_away RENAME TO api_tokens');
    }
    expect((await db.query('SELECT count(*)::int AS n FROM consumers')).rows[0].n).toBe(before);
    expect((await db.query(`SELECT count(*)::int AS n FROM consumers WHERE name = 'Half Made'`)).rows[0].n).toBe(0);
  });

  it('names a missing flag and shows the usage', async () => {
    const result = await cli('token', 'issue');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('{"error":"--consumer is required"}');
    expect(result.stderr).toContain('Usage: npm run cli -- <command>');
  });

  it('answers an unknown consumer or token id with exit code 1', async () => {
    const usage = await cli('consumer', 'usage', '--consumer', '99999');
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('{"error":"no consumer with id 99999"}');
    const revoke = await cli('token', 'revoke', '--token-id', '00000000-0000-4000-8000-000000000000');
    expect(revoke.code).toBe(1);
    expect(revoke.stderr).toContain('{"error":"no token with id 00000000-0000-4000-8000-000000000000"}');
  });
});
