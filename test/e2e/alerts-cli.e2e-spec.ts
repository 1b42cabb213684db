import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildDeliveryBody, deliveryHeaders, verifyWebhookSignature } from '#alerts';
import { resetDatabase, useTestEnvironment } from '#testing';
import { WebhookReceiver } from '../support/webhook-receiver.js';

// The CLI as a user runs it: the built entry point in its own process (`npm test` builds first).
const CLI = fileURLToPath(new URL('../../dist/apps/cli/src/main.js', import.meta.url));
const GUIDE = fileURLToPath(new URL('../../docs/webhooks.md', import.meta.url));
const SECRET = 'whsec_cli-test-secret';

function cli(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** The receiver example of docs/webhooks.md, run as written: the JavaScript block of its last section. */
class GuideReceiver {
  stdout = '';
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
  ) {}

  static async start(secret: string): Promise<{ receiver: GuideReceiver; port: number }> {
    const guide = readFileSync(GUIDE, 'utf8');
    const section = guide.slice(guide.indexOf('## A receiver in a few lines'));
    const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    if (!code) throw new Error('docs/webhooks.md has no receiver example');
    const dir = mkdtempSync(join(tmpdir(), 'tidewatch-receiver-'));
    writeFileSync(join(dir, 'receiver.mjs'), code);
    const child = spawn(process.execPath, [join(dir, 'receiver.mjs')], { env: { ...process.env, WEBHOOK_SECRET: secret, PORT: '0' } });
    const receiver = new GuideReceiver(child, dir);
    child.stdout!.on('data', (chunk: Buffer) => (receiver.stdout += chunk.toString('utf8')));
    const port = Number((await receiver.waitFor(/listening on (\d+)/))[1]);
    return { receiver, port };
  }

  /** The lines the example printed from `handle`: one per delivery it processed. */
  handled(): string[] {
    return this.stdout.split('\n').filter((line) => line && !line.startsWith('listening on'));
  }

  async waitFor(pattern: RegExp): Promise<RegExpExecArray> {
    for (let i = 0; i < 200; i++) {
      const match = pattern.exec(this.stdout);
      if (match) return match;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`receiver never printed ${pattern}; it printed: ${this.stdout}`);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill();
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

describe('npm run cli -- alerts test-endpoint', () => {
  let db: pg.Client;
  let receiver: GuideReceiver;
  let port: number;
  let consumerId: number;
  const loopbackOn = { WEBHOOK_ALLOW_LOOPBACK: 'true' };

  async function endpoint(url: string, secretKey: string | null): Promise<number> {
    const { rows } = await db.query('INSERT INTO webhook_endpoints (consumer_id, url, secret_key) VALUES ($1, $2, $3) RETURNING id', [
      consumerId,
      url,
      secretKey,
    ]);
    return rows[0].id;
  }

  beforeAll(async () => {
    const config = useTestEnvironment(); // points process.env (inherited by the CLI) at this worker's database
    await resetDatabase(config.DATABASE_URL);
    db = new pg.Client({ connectionString: config.DATABASE_URL });
    await db.connect();
    consumerId = (await db.query(`INSERT INTO consumers (name, plan) VALUES ('Hook Owner', 'tier1') RETURNING id`)).rows[0].id;
    ({ receiver, port } = await GuideReceiver.start(SECRET));
  });
  afterAll(async () => {
    await receiver.stop();
    await db.end();
  });

  it('sends one signed test delivery that the guide receiver verifies and accepts, and records nothing', async () => {
    const url = `http://127.0.0.1:${port}/hooks/tidewatch`;
    const id = await endpoint(url, SECRET);
    const result = await cli(loopbackOn, 'alerts', 'test-endpoint', String(id));
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toEqual({
      endpointId: id,
      url,
      deliveryId: expect.stringMatching(/^[0-9a-f]{64}$/),
      outcome: 'delivered',
      statusCode: 200,
      durationMs: expect.any(Number),
      error: null,
    });
    expect(Object.keys(report)).toEqual(['endpointId', 'url', 'deliveryId', 'outcome', 'statusCode', 'durationMs', 'error']);
    await receiver.waitFor(new RegExp(`test ${report.deliveryId}`));
    expect(receiver.handled()).toEqual([`test ${report.deliveryId}`]);

    const counts = await db.query(
      `SELECT (SELECT count(*)::int FROM webhook_deliveries) AS deliveries, (SELECT count(*)::int FROM webhook_delivery_attempts) AS attempts`,
    );
    expect(counts.rows).toEqual([{ deliveries: 0, attempts: 0 }]);
    const health = await db.query('SELECT consecutive_failures, last_success_at, last_failure_at FROM webhook_endpoints WHERE id = $1', [
      id,
    ]);
    expect(health.rows).toEqual([{ consecutive_failures: 0, last_success_at: null, last_failure_at: null }]);
  });

  it('sends the test envelope and headers: event type test, rule 0, the deliveryId derived from the endpoint and the time', async () => {
    const recorder = await WebhookReceiver.start();
    try {
      const id = await endpoint(recorder.url('/in'), 'plain secret');
      const result = await cli(loopbackOn, 'alerts', 'test-endpoint', '--endpoint', String(id));
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout);
      const [got] = await recorder.waitFor('/in', 1);
      const occurredAtMs = Date.parse(got!.body.occurredAt as string);
      expect(got!.body).toEqual({
        deliveryId: createHash('sha256').update(`test|${id}|${occurredAtMs}`).digest('hex'),
        consumerId,
        webhookEndpointId: id,
        eventId: 0,
        eventType: 'test',
        occurredAt: new Date(occurredAtMs).toISOString(),
        data: { message: 'Tidewatch test delivery', endpointId: id },
      });
      expect(report.deliveryId).toBe(got!.body.deliveryId);
      expect(got!.headers).toMatchObject({
        'content-type': 'application/json',
        'user-agent': 'Tidewatch-Webhooks/1.0',
        'x-event-id': '0',
        'x-webhook-event': 'test',
        'x-webhook-delivery-id': report.deliveryId,
        'webhook-id': report.deliveryId,
        'webhook-timestamp': String(Math.floor(occurredAtMs / 1000)),
      });
      expect(verifyWebhookSignature(got!.raw, got!.headers['x-webhook-signature'] as string, 'plain secret')).toBe(true);
    } finally {
      await recorder.close();
    }
  });

  it('reports a receiver that refuses the signature (another secret, or none) and exits 1', async () => {
    const wrong = await endpoint(`http://127.0.0.1:${port}/`, 'whsec_some-other-secret');
    const result = await cli(loopbackOn, 'alerts', 'test-endpoint', '--endpoint', String(wrong));
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ endpointId: wrong, outcome: 'permanent', statusCode: 401, error: 'HTTP 401' });

    const unsigned = await endpoint(`http://127.0.0.1:${port}/`, null);
    const plain = await cli(loopbackOn, 'alerts', 'test-endpoint', '--endpoint', String(unsigned));
    expect(plain.code).toBe(1);
    expect(JSON.parse(plain.stdout)).toMatchObject({ endpointId: unsigned, outcome: 'permanent', statusCode: 401 });
    expect(receiver.handled()).toHaveLength(1);
  });

  it('refuses a loopback receiver when WEBHOOK_ALLOW_LOOPBACK is off, before any request', async () => {
    const id = await endpoint(`http://127.0.0.1:${port}/`, SECRET);
    const result = await cli({ WEBHOOK_ALLOW_LOOPBACK: 'false' }, 'alerts', 'test-endpoint', '--endpoint', String(id));
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      endpointId: id,
      outcome: 'permanent',
      statusCode: null,
      error: 'refused: http is not allowed, only https',
    });
    const https = await endpoint(`https://127.0.0.1:${port}/`, SECRET);
    const literal = await cli({ WEBHOOK_ALLOW_LOOPBACK: 'false' }, 'alerts', 'test-endpoint', '--endpoint', String(https));
    expect(literal.code).toBe(1);
    expect(JSON.parse(literal.stdout)).toMatchObject({
      outcome: 'permanent',
      statusCode: null,
      error: 'refused: loopback address 127.0.0.1',
    });
  });

  it('answers an unknown endpoint with exit code 1, and a missing, doubled or malformed id with the usage', async () => {
    const unknown = await cli(loopbackOn, 'alerts', 'test-endpoint', '--endpoint', '99999');
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('{"error":"no webhook endpoint with id 99999"}');
    const missing = await cli(loopbackOn, 'alerts', 'test-endpoint');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('{"error":"the endpoint id is required: alerts test-endpoint ID"}');
    expect(missing.stderr).toContain('alerts test-endpoint ID ');
    const twice = await cli(loopbackOn, 'alerts', 'test-endpoint', '3', '--endpoint', '3');
    expect([twice.code, twice.stdout]).toEqual([2, '']);
    expect(twice.stderr).toContain('{"error":"give the endpoint id once: as ID or as --endpoint ID"}');
    const malformed = await cli(loopbackOn, 'alerts', 'test-endpoint', '3x');
    expect([malformed.code, malformed.stdout]).toEqual([2, '']);
    expect(malformed.stderr).toContain('{"error":"the endpoint id must be a positive integer, got \\"3x\\""}');
    const extra = await cli(loopbackOn, 'alerts', 'test-endpoint', '3', '4');
    expect([extra.code, extra.stdout]).toEqual([2, '']);
    expect(extra.stderr).toContain('{"error":"unexpected argument \\"4\\""}');
  });
});

describe('the receiver example of docs/webhooks.md', () => {
  let receiver: GuideReceiver;
  let port: number;
  beforeAll(async () => {
    ({ receiver, port } = await GuideReceiver.start(SECRET));
  });
  afterAll(() => receiver.stop());

  const signed = (deliveryId: string) => {
    const body = buildDeliveryBody({
      deliveryId,
      consumerId: 1,
      webhookEndpointId: 2,
      eventId: 3,
      eventType: 'ledger_update',
      occurredAtMs: Date.UTC(2026, 10, 25),
      payloadJson: '{"amount":"2500.0","type":"deposit"}',
    });
    return {
      body,
      headers: deliveryHeaders({
        deliveryId,
        eventId: 3,
        eventType: 'ledger_update',
        body,
        secretKey: SECRET,
        timestampSec: 1_795_000_000,
      }),
    };
  };
  const post = (body: string, headers: Record<string, string>) =>
    fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body, headers }).then((res) => res.status);

  it('is the example the README shows, word for word', () => {
    const example = (text: string, heading: string) => /```js\n([\s\S]*?)```/.exec(text.slice(text.indexOf(heading)))?.[1];
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    const guide = example(readFileSync(GUIDE, 'utf8'), '## A receiver in a few lines');
    expect(guide).toBeDefined();
    expect(example(readme, '## Receiving alerts')).toBe(guide);
  });

  it('accepts a signed delivery once, answers a repeat with 200 without processing it again', async () => {
    const { body, headers } = signed('a'.repeat(64));
    expect(await post(body, headers)).toBe(200);
    expect(await post(body, headers)).toBe(200);
    const other = signed('b'.repeat(64));
    expect(await post(other.body, other.headers)).toBe(200);
    await receiver.waitFor(new RegExp(`ledger_update ${'b'.repeat(64)}`));
    expect(receiver.handled()).toEqual([`ledger_update ${'a'.repeat(64)}`, `ledger_update ${'b'.repeat(64)}`]);
  });

  it('refuses a changed body, a missing signature and another secret with 401, before parsing', async () => {
    const { body, headers } = signed('c'.repeat(64));
    expect(await post(body.replace('2500.0', '2500.00'), headers)).toBe(401);
    const { 'x-webhook-signature': _dropped, ...unsigned } = headers;
    expect(await post(body, unsigned)).toBe(401);
    const forged = deliveryHeaders({
      deliveryId: 'c'.repeat(64),
      eventId: 3,
      eventType: 'ledger_update',
      body,
      secretKey: 'guessed',
      timestampSec: 1_795_000_000,
    });
    expect(await post(body, forged)).toBe(401);
    // Not JSON at all, and unsigned: refused by the signature check, so the example never tries to parse it.
    expect(await post('not json', {})).toBe(401);
    expect(receiver.handled().some((line) => line.includes('c'.repeat(64)))).toBe(false);
  });
});
