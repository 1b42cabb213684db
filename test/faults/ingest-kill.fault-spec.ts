import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { digestEveryTable, resetDatabase, resetRedis, seedExchangeWideRules, useTestEnvironment } from '#testing';
import { run, type Run } from '../support/app-process.js';

// A catch-up killed anywhere: the real ingestor (the build output) backfills a short simulation, first
// uninterrupted into database A, then into database B under SIGKILL at more than twenty points spread over
// the catch-up (while it starts, after facts committed with state updates held, inside a state group's
// transaction), restarted each time. B must end with every table as A has it.

const HOUR = 3_600_000;
/** The simulator's "now", standing still (SIM_NOW): both runs backfill the same 59 minutes and stop there. */
const SIM_NOW = Date.UTC(2026, 10, 20, 0, 59, 0);
const START = Date.UTC(2026, 10, 20, 0, 0, 0);
/** A state update every exchange minute: 59 updates, applied eight at a time while catching up. */
const UPDATES = 59;
const SIMULATION = {
  EXCHANGE_SOURCE: 'simulator',
  SIM_NOW: String(SIM_NOW),
  SIM_BACKFILL_DAYS: '0',
  SIM_SEED: '23',
  SIM_WALLETS: '30',
  SIM_MARKETS: '4',
  SIM_BOOK_ORDERS: '500',
  STATE_UPDATE_INTERVAL: '1',
};
const DONE = '"msg":"simulator backfill done; running live"';

type Kill =
  /** While the process starts (migrations, the simulator's replay): this long after the spawn. */
  | { kind: 'starting'; afterMs: number }
  /** Once this share of A's fills is stored, and more than at this process's start: facts committed, updates held. */
  | { kind: 'facts'; share: number }
  /** While a state group's transaction holds the state-update lock, with at least this many updates applied. */
  | { kind: 'in a state group'; applied: number };

/** Spread over the catch-up in the order they come: a group of eight starts once its eighth boundary is stored. */
const KILLS = (
  [
    { kind: 'starting', afterMs: 300 },
    ...Array.from({ length: 12 }, (_, i): Kill => ({ kind: 'facts', share: 0.04 + i * 0.08 })),
    ...Array.from({ length: 7 }, (_, i): Kill => ({ kind: 'in a state group', applied: 8 * i })),
    { kind: 'starting', afterMs: 2_000 },
  ] satisfies Kill[] as Kill[]
).sort((a, b) => position(a) - position(b));

/** Where in the catch-up a kill is meant to land, as a share of it. */
function position(kill: Kill): number {
  if (kill.kind === 'facts') return kill.share;
  if (kill.kind === 'in a state group') return (kill.applied + 8) / UPDATES - 0.01;
  return kill.afterMs / 100_000;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ingestor faults: a catch-up killed anywhere', () => {
  const config = useTestEnvironment();
  // The server's maintenance database: the run's own databases are made and dropped from it.
  const admin = new pg.Client({ connectionString: Object.assign(new URL(config.DATABASE_URL), { pathname: '/postgres' }).toString() });
  const names = ['a', 'b'].map((run) => `${process.env.TEST_DB_PREFIX ?? 'tidewatch_test'}_ingest_kill_${run}`);
  const urls = names.map((name) => Object.assign(new URL(config.DATABASE_URL), { pathname: `/${name}` }).toString());
  const clients: pg.Client[] = [];
  const processes: Run[] = [];
  const dirs: string[] = [];
  const redisPrefix = `${config.REDIS_PREFIX}kill`;

  beforeAll(async () => {
    await admin.connect();
    for (const [i, name] of names.entries()) {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${name}`);
      await resetDatabase(urls[i]!);
      const client = new pg.Client({ connectionString: urls[i] });
      await client.connect();
      clients.push(client);
      // Rules that match across the exchange, older than the simulation, so both runs write the same deliveries.
      await seedExchangeWideRules(async (sql, params) => (await client.query(sql, params)).rows, new Date(START - HOUR));
    }
  });

  afterAll(async () => {
    for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    for (const client of clients) await client.end();
    for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    await resetRedis(config.REDIS_URL, redisPrefix);
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  function ingestor(db: number, dataDir: string): Run {
    const started = run('ingestor', { ...SIMULATION, DATABASE_URL: urls[db]!, SIM_DATA_DIR: dataDir, REDIS_PREFIX: redisPrefix });
    processes.push(started);
    return started;
  }

  async function count(db: number, sql: string): Promise<number> {
    return Number((await clients[db]!.query(sql)).rows[0].n);
  }

  /** Polls `check` every 20 ms; false when the process ended or said it was done first. */
  async function until(proc: Run, check: () => Promise<boolean>, timeoutMs = 240_000): Promise<boolean> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      if (await check()) return true;
      if (proc.output().includes(DONE) || proc.child.exitCode !== null) return false;
      if (Date.now() > end) throw new Error(`timed out; the ingestor said:\n${proc.output().slice(-3_000)}`);
      await sleep(20);
    }
  }

  async function kill(proc: Run): Promise<void> {
    proc.child.kill('SIGKILL');
    await proc.exited;
  }

  /** Waits for the backfill's end and for the projections to stand still, then stops the ingestor. */
  async function finish(db: number, proc: Run, projected?: unknown): Promise<unknown> {
    const done = await until(proc, async () => false).catch((error: Error) => error);
    if (done instanceof Error || !proc.output().includes(DONE)) throw new Error(`no end of the backfill:\n${proc.output().slice(-3_000)}`);
    const read = async () => (await clients[db]!.query(`SELECT name, position FROM projection_checkpoints ORDER BY name`)).rows;
    let last: unknown = null;
    for (let i = 0; i < 120; i++) {
      const now = JSON.stringify(await read());
      if (projected !== undefined ? now === projected : now === last) break;
      last = now;
      await sleep(2_500);
    }
    await kill(proc);
    return JSON.stringify(await read());
  }

  it('ends with every table as an uninterrupted run, whatever point the ingestor was killed at', async () => {
    const dirA = await mkdtemp(join(tmpdir(), 'tw-kill-a-'));
    const dirB = await mkdtemp(join(tmpdir(), 'tw-kill-b-'));
    dirs.push(dirA, dirB);

    const projected = await finish(0, ingestor(0, dirA));
    const uninterrupted = await digestEveryTable(async (sql, params) => (await clients[0]!.query(sql, params)).rows);
    const fills = await count(0, `SELECT count(*)::int AS n FROM fills`);
    expect(await count(0, `SELECT count(*)::int AS n FROM state_updates`)).toBe(UPDATES);
    expect(fills).toBeGreaterThan(1_000);
    expect(await count(0, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_type = 'state_updated'`)).toBe(UPDATES);

    const made: string[] = [];
    let insideGroups = 0;
    for (const point of KILLS) {
      const proc = ingestor(1, dirB);
      const fillsAtStart = await count(1, `SELECT count(*)::int AS n FROM fills`);
      let reached: boolean;
      if (point.kind === 'starting') {
        await sleep(point.afterMs);
        reached = proc.child.exitCode === null && !proc.output().includes(DONE);
      } else if (point.kind === 'facts') {
        const target = Math.max(Math.ceil(point.share * fills), fillsAtStart + 1);
        reached = await until(proc, async () => (await count(1, `SELECT count(*)::int AS n FROM fills`)) >= target);
      } else {
        reached = await until(
          proc,
          async () =>
            (await count(1, `SELECT count(*)::int AS n FROM state_updates`)) >= point.applied &&
            (await count(
              1,
              `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
               WHERE l.locktype = 'advisory' AND l.granted AND d.datname = current_database() AND l.objid = hashtext('tidewatch.state_update')::oid`,
            )) > 0,
        );
      }
      const updatesBefore = await count(1, `SELECT count(*)::int AS n FROM state_updates`);
      await kill(proc);
      if (!reached) continue;
      // A group killed before its commit left no update of its own behind.
      const updatesAfter = await count(1, `SELECT count(*)::int AS n FROM state_updates`);
      if (point.kind === 'in a state group' && updatesAfter === updatesBefore) insideGroups++;
      made.push(`${point.kind} at ${await count(1, `SELECT count(*)::int AS n FROM fills`)} fills, ${updatesAfter} updates`);
    }
    // The point of the test is that the kills happened: over twenty of them, several inside a group's transaction.
    expect(made.length).toBeGreaterThanOrEqual(20);
    expect(insideGroups).toBeGreaterThanOrEqual(3);

    await finish(1, ingestor(1, dirB), projected);
    const afterKills = await digestEveryTable(async (sql, params) => (await clients[1]!.query(sql, params)).rows);
    const differing = Object.keys({ ...uninterrupted, ...afterKills }).filter((table) => afterKills[table] !== uninterrupted[table]);
    expect(
      Object.fromEntries(differing.map((table) => [table, { uninterrupted: uninterrupted[table], afterKills: afterKills[table] }])),
    ).toEqual({});
    expect(afterKills['fills']).toBe(`${fills} rows ${uninterrupted['fills']!.split(' ')[2]}`);
    // A limit for a hang, not a speed: about 23 starts of the ingestor on two shared cores.
  }, 1_200_000);
});
