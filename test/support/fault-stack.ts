import pg from 'pg';
import { nodeTime } from '#exchange';
import { address, NodeDataDir, wireFill } from '#testing';
import { run, type Run } from './app-process.js';
import { freePort } from './free-port.js';
import { OwnPostgres } from './own-postgres.js';
import { OwnRedis } from './own-redis.js';
import { WebhookReceiver } from './webhook-receiver.js';

// The faults suites' shared set-up: Postgres and Redis of their own, the three apps as built processes on them,
// a live node feed the test writes (so it knows every fact the ingestor must store), a webhook receiver, and a
// consumer whose exchange-wide ledger rule turns every deposit into one delivery.

const DEPOSITS_PER_BLOCK = 8;
const FILLS_PER_BLOCK = 2;
const BLOCK_EVERY_MS = 100;
export const RECEIVER_PATH = '/faults';

export interface Consumer {
  consumerId: number;
  token: string;
}

/** Waits for `check` (a check that throws, as a query while Postgres is away, is a no), failing by name after `timeoutMs`: a limit that catches a hang, not a measurement. */
/** The figures of `total` deliveries each delivered, received and charged once. */
export function eachDeliveredOnce(total: number): Record<string, number> {
  return {
    rows: total,
    delivered: total,
    charged: total,
    delivered_attempts: total,
    distinct_delivered_attempts: total,
    receivedRequests: total,
    receivedDistinct: total,
    rowsNotReceived: 0,
  };
}

export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (
    !(await Promise.resolve()
      .then(check)
      .catch(() => false))
  ) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export class FaultStack {
  readonly apps: Record<'api' | 'ingestor' | 'dispatcher', Run> = {} as never;
  /** A pool of the test's own: it reconnects after a restart as the apps must. */
  readonly db: pg.Pool;
  readonly feed: LiveFeed;
  private apiPort = 0;
  private extraEnv: Record<string, string> = {};
  private readonly loops: RequestLoop[] = [];

  private constructor(
    readonly postgres: OwnPostgres,
    readonly redis: OwnRedis,
    readonly dir: NodeDataDir,
    readonly receiver: WebhookReceiver,
  ) {
    this.db = new pg.Pool({ connectionString: postgres.url(), max: 2 });
    this.db.on('error', () => undefined); // an idle connection ended by a restart; the next query opens another
    this.feed = new LiveFeed(dir);
  }

  /** `env`: settings of the test's for every app (on top of the stack's own). */
  static async start(env: Record<string, string> = {}): Promise<FaultStack> {
    const stack = new FaultStack(
      await OwnPostgres.start(),
      await OwnRedis.start(),
      await NodeDataDir.create(),
      await WebhookReceiver.start(),
    );
    stack.apiPort = await freePort();
    stack.extraEnv = env;
    const migrated = run('cli', stack.env(), ['migrate']);
    if ((await migrated.exited) !== 0) throw new Error(`migrate failed:\n${migrated.output()}`);
    stack.apps.api = await stack.startApp('api', 'api listening');
    stack.apps.ingestor = await stack.startApp('ingestor', 'ingestor started');
    stack.apps.dispatcher = await stack.startApp('dispatcher', 'dispatcher started');
    return stack;
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      DATABASE_URL: this.postgres.url(),
      REDIS_URL: this.redis.url,
      REDIS_PREFIX: 'tw',
      PORT: String(this.apiPort),
      JWT_SECRET: 'fault-tests-signing-secret-of-forty-eight-bytes!!',
      EXCHANGE_SOURCE: 'node',
      HL_NODE_DATA_DIR: this.dir.root,
      HL_INFO_URL: 'http://127.0.0.1:9/info',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      ...this.extraEnv,
      ...extra,
    };
  }

  async startApp(app: 'api' | 'ingestor' | 'dispatcher', started: string, env: Record<string, string> = {}): Promise<Run> {
    const process = run(app, this.env(env));
    await until(`the ${app} to start`, () => process.child.exitCode !== null || process.output().includes(started));
    if (process.child.exitCode !== null) throw new Error(`${app} exited early:\n${process.output()}`);
    return process;
  }

  /** A consumer made by the CLI, as an operator would. */
  async createConsumer(name: string, flags: string[] = []): Promise<Consumer> {
    const cli = run('cli', this.env(), ['consumer', 'create', '--name', name, '--plan', 'tier4', ...flags]);
    if ((await cli.exited) !== 0) throw new Error(`consumer create failed:\n${cli.output()}`);
    const line = cli
      .output()
      .split('\n')
      .find((l) => l.startsWith('{"consumerId"'));
    return JSON.parse(line!) as Consumer;
  }

  api(path: string, token: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`http://127.0.0.1:${this.apiPort}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      signal: AbortSignal.timeout(30_000),
    });
  }

  /** The endpoint on the receiver and an exchange-wide ledger rule: every deposit the feed writes from now on is one delivery. */
  async subscribe(consumer: Consumer): Promise<void> {
    const endpoint = await this.api('/events/endpoints', consumer.token, {
      method: 'POST',
      body: JSON.stringify({ url: this.receiver.url(RECEIVER_PATH) }),
    });
    if (endpoint.status !== 201) throw new Error(`endpoint: ${endpoint.status} ${await endpoint.text()}`);
    const { data } = (await endpoint.json()) as { data: { id: number } };
    const rule = await this.api('/events', consumer.token, {
      method: 'POST',
      body: JSON.stringify({ eventType: 'ledger_update', webhookEndpointId: data.id }),
    });
    if (rule.status !== 201) throw new Error(`rule: ${rule.status} ${await rule.text()}`);
  }

  async count(sql: string, params: unknown[] = []): Promise<number> {
    return Number((await this.db.query(sql, params)).rows[0].n);
  }

  /** Where the ingestor's checkpoints stand: the sum of the blocks each stream has stored (it only grows). */
  checkpoints(): Promise<number> {
    return this.count(`SELECT coalesce(sum((position->>'lastBlock')::bigint), 0) AS n FROM feed_checkpoints`);
  }

  /** Every delivery of the rows, as the figures a test compares: rows, delivered rows, delivered attempts, distinct ids the receiver saw. */
  async deliveryFigures(): Promise<Record<string, number>> {
    const row = (
      await this.db.query(
        `SELECT count(*)::int AS rows,
                count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
                count(*) FILTER (WHERE usage_charged)::int AS charged,
                (SELECT count(*)::int FROM webhook_delivery_attempts WHERE outcome = 'delivered') AS delivered_attempts,
                (SELECT count(DISTINCT delivery_id)::int FROM webhook_delivery_attempts WHERE outcome = 'delivered') AS distinct_delivered_attempts
         FROM webhook_deliveries`,
      )
    ).rows[0] as Record<string, number>;
    const ids = (await this.db.query(`SELECT delivery_id FROM webhook_deliveries`)).rows.map((r) => r.delivery_id as string);
    const received = this.receiver.on(RECEIVER_PATH).map((r) => r.body.deliveryId as string);
    const seen = new Set(received);
    return {
      ...row,
      receivedRequests: received.length,
      receivedDistinct: seen.size,
      rowsNotReceived: ids.filter((id) => !seen.has(id)).length,
    };
  }

  /**
   * Waits until `total` deliveries are delivered and charged, then gives their figures (`deliveryFigures`). The
   * limit only catches a hang: on a loaded machine the burst after an outage takes minutes. A timeout says where
   * the figures stood.
   */
  async settledDeliveries(total: number, timeoutMs = 420_000): Promise<Record<string, number>> {
    const settled = async () =>
      (await this.count(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered' AND usage_charged`)) === total;
    await until('every delivery delivered and charged', settled, timeoutMs).catch(async (error: Error) => {
      throw new Error(`${error.message}; of ${total}: ${JSON.stringify(await this.deliveryFigures())}`);
    });
    return this.deliveryFigures();
  }

  /** A client reading `path` in a loop (started), stopped by `close` if the test has not. */
  readLoop(token: string, path: string): RequestLoop {
    const loop = new RequestLoop(this, token, path);
    this.loops.push(loop);
    loop.start();
    return loop;
  }

  async close(): Promise<void> {
    await this.feed.stop();
    for (const loop of this.loops) await loop.stop();
    for (const app of Object.values(this.apps)) if (app.child.exitCode === null) app.child.kill('SIGKILL');
    await Promise.all(Object.values(this.apps).map((app) => app.exited));
    await this.db.end().catch(() => undefined);
    await this.receiver.close();
    await this.redis.stop();
    await this.postgres.remove();
    await this.dir.remove();
  }
}

/**
 * The exchange as the node writes it, live: every BLOCK_EVERY_MS a block of fills and a block of deposits at
 * the wall clock's time, appended to the hourly files. It remembers every fill and deposit it wrote, which is
 * what the ingestor must end up with, each once.
 */
export class LiveFeed {
  readonly fillTids: number[] = [];
  readonly depositHashes: string[] = [];
  private block = 1_000;
  private running?: Promise<void>;
  private stopped = false;

  constructor(private readonly dir: NodeDataDir) {}

  start(): void {
    this.stopped = false;
    this.running = (async () => {
      while (!this.stopped) {
        await this.writeBlock();
        await new Promise((r) => setTimeout(r, BLOCK_EVERY_MS));
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async writeBlock(): Promise<void> {
    const block = ++this.block;
    const now = Date.now();
    const time = nodeTime(now, 0);
    const d = new Date(now);
    const file = `${d.toISOString().slice(0, 10).replaceAll('-', '')}/${d.getUTCHours()}`;
    const fills = Array.from({ length: FILLS_PER_BLOCK }, (_, i) => {
      const tid = block * 10 + i;
      this.fillTids.push(tid);
      return [address(0x200000 + i), wireFill({ coin: 'BTC', px: '60000.5', sz: '0.01', side: i % 2 ? 'A' : 'B', time: now, tid })];
    });
    const deposits = Array.from({ length: DEPOSITS_PER_BLOCK }, (_, i) => {
      const hash = `0x${(block * 10 + i).toString(16).padStart(64, '0')}`;
      this.depositHashes.push(hash);
      return { time, hash, inner: { LedgerUpdate: { users: [address(0x300000 + i)], delta: { type: 'deposit', usdc: `${block}.5` } } } };
    });
    const line = (events: unknown[]) => `${JSON.stringify({ local_time: time, block_time: time, block_number: block, events })}\n`;
    await this.dir.append('node_fills_by_block', file, line(fills));
    await this.dir.append('misc_events_by_block', file, line(deposits));
  }
}

export interface Answer {
  at: number;
  /** The HTTP status, or 0 when no answer came (refused, reset, or past the client's limit). */
  status: number;
}

/** A client reading one route in a loop, one request at a time, recording every answer. */
export class RequestLoop {
  readonly answers: Answer[] = [];
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly stack: FaultStack,
    private readonly token: string,
    private readonly path: string,
  ) {}

  start(): void {
    this.running = (async () => {
      while (!this.stopped) {
        const status = await this.stack.api(this.path, this.token).then(
          async (res) => (await res.arrayBuffer(), res.status),
          () => 0,
        );
        this.answers.push({ at: Date.now(), status });
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  between(from: number, to = Infinity): Answer[] {
    return this.answers.filter((a) => a.at >= from && a.at <= to);
  }
}
