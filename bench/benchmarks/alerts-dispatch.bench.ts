import type { INestApplicationContext } from '@nestjs/common';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Agent, request } from 'undici';
import { DeliveryQueue } from '#alerts';
import { loadConfig } from '#config';
import { nodeTime } from '#exchange';
import { resetRedisPrefix } from '#runtime';
import { createIngestorApp } from '../../apps/ingestor/src/ingestor.bootstrap.js';
import { benchConsumerToken, dropDatabase, progress, recreateDatabase } from '../support.js';

/**
 * `npm run bench -- alerts-dispatch`: the dispatcher's deliveries per second to a loopback receiver with
 * every attempt recorded, beside a raw undici POST loop to the same receiver in the same run; and the
 * time from a block's ingest (the commit of its facts transaction, the outbox row's `created_at`) to the
 * receiver getting the delivery, at a steady 500 deliveries a second. The deliveries go to 20 endpoints
 * (paths of the one receiver): one endpoint alone is held to 10 requests in flight by design, so it
 * would measure that cap, not the dispatcher.
 */
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tidewatch_bench_alerts';
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 20_000);
const RATE = 500;
const RATE_SECONDS = 20;
const ENDPOINTS = 20;
const TARGET = { deliveriesPerSecond: 1_000, p99Ms: 250 };
const dispatcherEntry = fileURLToPath(new URL('../../apps/dispatcher/src/main.js', import.meta.url));

class Receiver {
  readonly arrivals = new Map<string, number>();
  /** Per source hash (ledger deliveries): when the first delivery of it arrived. */
  readonly hashArrivals = new Map<string, number>();
  count = 0;
  private constructor(readonly server: Server) {}

  static async start(): Promise<Receiver> {
    const receiver: Receiver = new Receiver(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const id = req.headers['x-webhook-delivery-id'];
          const now = Date.now();
          if (typeof id === 'string' && !receiver.arrivals.has(id)) receiver.arrivals.set(id, now);
          const hash = (JSON.parse(Buffer.concat(chunks).toString()) as { data?: { hash?: string } }).data?.hash;
          if (hash && !receiver.hashArrivals.has(hash)) receiver.hashArrivals.set(hash, now);
          receiver.count++;
          res.writeHead(200).end();
        });
      }),
    );
    receiver.server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }
}

async function rawPostLoop(url: string, total: number, concurrency: number): Promise<number> {
  const agent = new Agent({ connections: concurrency });
  const body = JSON.stringify({ deliveryId: 'x'.repeat(64), data: { address: '0x'.padEnd(42, '0'), amount: '100.5' } });
  let sent = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < total) {
        sent++;
        const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher: agent });
        await res.body.dump();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return total / seconds;
}

function startDispatcher(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(
    'taskset',
    [
      '-c',
      '0',
      process.execPath,
      ...(process.env.BENCH_DISPATCHER_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_DISPATCHER_PROFILE}`] : []),
      dispatcherEntry,
    ],
    { env: { ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      if (out.includes('dispatcher started')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`dispatcher exited with ${code}`)));
  });
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('benchmark timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export async function alertsDispatchBenchmark() {
  await recreateDatabase(DATABASE_URL);
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-bench-alerts-'));
  const env = {
    DATABASE_URL,
    REDIS_PREFIX: 'twbenchalerts',
    EXCHANGE_SOURCE: 'node',
    HL_NODE_DATA_DIR: dir,
    HL_INFO_URL: 'http://127.0.0.1:9/info',
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    LOG_LEVEL: 'silent',
  };
  await benchConsumerToken(env, 'bench-alerts');
  const config = loadConfig();
  await resetRedisPrefix(config.REDIS_URL, config.REDIS_PREFIX);
  const receiver = await Receiver.start();
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  const queue = new DeliveryQueue(config);
  let dispatcher: ChildProcess | undefined;
  let ingestor: INestApplicationContext | undefined;
  try {
    const consumerId = (await db.query(`SELECT id FROM consumers LIMIT 1`)).rows[0].id as number;
    const endpointIds: number[] = [];
    for (let i = 0; i < ENDPOINTS; i++) {
      endpointIds.push(
        (
          await db.query(
            `INSERT INTO webhook_endpoints (consumer_id, url, secret_key) VALUES ($1, $2, 'bench-secret-0123456') RETURNING id`,
            [consumerId, receiver.url(`/hook/${i}`)],
          )
        ).rows[0].id as number,
      );
    }

    progress(`raw undici POST loop: ${DELIVERIES} requests`);
    const rawPerSecond = await rawPostLoop(receiver.url(), DELIVERIES, config.DISPATCHER_CONCURRENCY);

    dispatcher = await startDispatcher({ ...process.env, ...env });
    progress(`dispatcher: ${DELIVERIES} pending deliveries`);
    // The deliveries need a rule that is in force (the dispatcher cancels a deleted or paused rule's); this
    // one matches nothing itself (no amount is below 0), so the chain's phase below is all the others'.
    const rawRuleId = (
      await db.query(
        `INSERT INTO alert_rules (consumer_id, webhook_endpoint_id, event_type, filters) VALUES ($1, $2, 'ledger_update', '{"amount":{"lt":"0"}}') RETURNING id`,
        [consumerId, endpointIds[0]],
      )
    ).rows[0].id as number;
    await db.query(
      `INSERT INTO webhook_deliveries (delivery_id, consumer_id, webhook_endpoint_id, rule_id, event_type, occurred_at, payload, status)
       SELECT encode(sha256(('bench|' || i)::bytea), 'hex'), $1, ($2::int[])[1 + i % array_length($2::int[], 1)], $4, 'ledger_update', now(),
              json_build_object('address', '0x' || lpad(to_hex(i), 40, '0'), 'type', 'deposit', 'amount', i || '.5')::text, 'pending'
       FROM generate_series(1, $3) AS i`,
      [consumerId, endpointIds, DELIVERIES, rawRuleId],
    );
    const ids = (await db.query(`SELECT delivery_id, webhook_endpoint_id FROM webhook_deliveries`)).rows.map((r) => ({
      deliveryId: r.delivery_id as string,
      webhookEndpointId: r.webhook_endpoint_id as number,
      attemptsMade: 0,
    }));
    const started = performance.now();
    await queue.enqueue(ids);
    const delivered = async () =>
      (await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered'`)).rows[0].n as number;
    await until(async () => (await delivered()) === DELIVERIES, 600_000);
    const dispatchPerSecond = DELIVERIES / ((performance.now() - started) / 1000);
    const attempts = (await db.query(`SELECT count(*)::int AS n FROM webhook_delivery_attempts`)).rows[0].n as number;

    progress(`latency: ${RATE} deliveries/s for ${RATE_SECONDS} s through the ingestor`);
    Object.assign(process.env, env);
    ingestor = await createIngestorApp();
    // One deposit rule per endpoint, each for its own band of amounts: every deposit matches exactly one.
    for (const [i, endpointId] of endpointIds.entries()) {
      await db.query(
        `INSERT INTO alert_rules (consumer_id, webhook_endpoint_id, event_type, filters) VALUES ($1, $2, 'ledger_update', $3)`,
        [consumerId, endpointId, JSON.stringify({ types: ['deposit'], amount: { gte: String(i * 100), lt: String((i + 1) * 100) } })],
      );
    }
    await db.query(
      `INSERT INTO alert_rules_version (id, version) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET version = alert_rules_version.version + 1`,
    );
    await new Promise((r) => setTimeout(r, 1_100)); // the rule's creation time is now: blocks from here on match
    const perBlock = RATE / 10;
    let block = 1;
    const writtenAt = new Map<string, number>();
    const end = Date.now() + RATE_SECONDS * 1000;
    while (Date.now() < end) {
      const t = Date.now();
      const time = nodeTime(t, 0);
      const events = Array.from({ length: perBlock }, (_, i) => ({
        time,
        hash: `0x${(block * 1000 + i).toString(16).padStart(64, '0')}`,
        inner: {
          LedgerUpdate: {
            users: [`0x${(block * 1000 + i).toString(16).padStart(40, '0')}`],
            delta: { type: 'deposit', usdc: `${(i % ENDPOINTS) * 100 + 50}.5` },
          },
        },
      }));
      const d = new Date(t);
      const folder = join(dir, 'misc_events_by_block', 'hourly', d.toISOString().slice(0, 10).replaceAll('-', ''));
      mkdirSync(folder, { recursive: true });
      appendFileSync(
        join(folder, String(d.getUTCHours())),
        `${JSON.stringify({ local_time: time, block_time: time, block_number: block++, events })}\n`,
      );
      const appended = Date.now();
      for (const e of events) writtenAt.set(e.hash, appended);
      await new Promise((r) => setTimeout(r, Math.max(0, t + 100 - Date.now())));
    }
    const expected = (block - 1) * perBlock;
    await until(
      async () =>
        (
          await db.query(
            `SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_type = 'ledger_update' AND rule_id <> $1 AND status = 'delivered'`,
            [rawRuleId],
          )
        ).rows[0].n === expected,
      120_000,
    );
    const rows = (
      await db.query(
        `SELECT d.delivery_id, (extract(epoch FROM d.created_at) * 1000)::float8 AS created_ms, (extract(epoch FROM a.started_at) * 1000)::float8 AS started_ms
         FROM webhook_deliveries d JOIN webhook_delivery_attempts a USING (delivery_id) WHERE d.rule_id <> $1`,
        [rawRuleId],
      )
    ).rows;
    const latencies = rows.map((r) => receiver.arrivals.get(r.delivery_id)! - r.created_ms).sort((a, b) => a - b);
    // Where the time goes: from the facts transaction to the dispatcher starting the attempt, and the attempt itself.
    const toAttempt = rows.map((r) => r.started_ms - r.created_ms).sort((a, b) => a - b);
    // What a user sees: from the block line landing in the node's file (the feed's poll wait included).
    const fromFile = [...writtenAt].map(([hash, at]) => receiver.hashArrivals.get(hash)! - at).sort((a, b) => a - b);
    return {
      name: 'alerts-dispatch',
      table: [
        {
          measure: 'dispatcher deliveries/s (every attempt recorded)',
          value: Math.round(dispatchPerSecond),
          target: `>= ${TARGET.deliveriesPerSecond}`,
        },
        { measure: 'raw undici POST loop req/s (same receiver, same run)', value: Math.round(rawPerSecond), target: '' },
        { measure: 'dispatcher / raw', value: (dispatchPerSecond / rawPerSecond).toFixed(2), target: '' },
        { measure: 'attempt rows recorded', value: attempts, target: `${DELIVERIES}` },
        { measure: `ingest -> received p50 ms at ${RATE}/s`, value: Math.round(percentile(latencies, 50)), target: '' },
        { measure: `ingest -> received p99 ms at ${RATE}/s`, value: Math.round(percentile(latencies, 99)), target: `< ${TARGET.p99Ms}` },
        {
          measure: `block line written -> received p50 / p99 ms`,
          value: `${Math.round(percentile(fromFile, 50))} / ${Math.round(percentile(fromFile, 99))}`,
          target: '',
        },
        {
          measure: `ingest -> attempt started p50 / p99 ms`,
          value: `${Math.round(percentile(toAttempt, 50))} / ${Math.round(percentile(toAttempt, 99))}`,
          target: '',
        },
        { measure: 'deliveries in the latency run', value: latencies.length, target: `${expected}` },
      ],
    };
  } finally {
    await ingestor?.close();
    if (dispatcher && dispatcher.exitCode === null) {
      const exited = new Promise((r) => dispatcher!.once('exit', r));
      dispatcher.kill('SIGTERM');
      await exited;
    }
    await queue.onApplicationShutdown();
    await db.end();
    receiver.server.closeAllConnections();
    receiver.server.close();
    rmSync(dir, { recursive: true, force: true });
    await dropDatabase(DATABASE_URL);
  }
}
