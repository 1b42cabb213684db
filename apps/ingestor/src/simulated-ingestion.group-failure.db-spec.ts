import { afterAll, describe, expect, it } from '@jest/globals';
import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { CATCH_UP_STATE_GROUP, FeedSourceAdapters, type FeedSource } from '#market';
import { JsonLogger } from '#runtime';
import { dumpEveryTable, resetDatabase, resetRedis, seedExchangeWideRules, useTestEnvironment } from '#testing';
import { INGESTOR_WRITE_SIDE } from './ingestor.module.js';

// A state group whose transaction fails while the catch-up goes on. The chunk
// stored meanwhile and the one read ahead must not be dropped, and the group must be applied once Postgres
// takes it again: every fill, order, delivery and state row as an uninterrupted run has them.

const config = useTestEnvironment();
const dirs: string[] = [];

const NOW = Date.UTC(2026, 10, 20, 0, 0, 0);
const HOUR = 3_600_000;
const SETTINGS = { seed: 11, wallets: 40, markets: 4, eventsPerSecond: 1 };
const START = NOW - 4 * HOUR;
/** Sixteen boundaries: a group of eight applied beside the next chunks, then the rest. */
const UPDATES = 16;

/** The ingestor's write side with its alert steps (IngestorModule without its runners): what one process has. */
@Module({ imports: INGESTOR_WRITE_SIDE })
class WriteSide {}

interface Process {
  context: INestApplicationContext;
  feed: FeedSource;
  query: (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;
}

/** An emptied database with the exchange-wide rules, and a new process's write side on it, opened. */
async function started(): Promise<Process> {
  await resetDatabase(config.DATABASE_URL);
  const context = await NestFactory.createApplicationContext(WriteSide, { logger: false });
  await context.init();
  contexts.push(context);
  const dataSource = context.get(DataSource);
  const query = (sql: string, params?: unknown[]) => dataSource.query(sql, params) as Promise<Array<Record<string, unknown>>>;
  await seedExchangeWideRules(query, new Date(START - HOUR));
  const dataDir = await mkdtemp(join(tmpdir(), 'tw-sim-group-'));
  dirs.push(dataDir);
  // The ingestor's simulator feed on a clock stopped at NOW: it backfills to NOW and stays there.
  const feed = context
    .get(FeedSourceAdapters)
    .simulator(
      { dataDir, settings: SETTINGS, backfillDays: 4 / 24, stateIntervalMs: 15 * 60_000, speed: 1, clock: () => NOW },
      new JsonLogger('silent'),
    );
  await feed.open();
  return { context, feed, query };
}

/** Steps the feed as the runner does, until it has nothing left to store. */
async function runToTheEnd({ feed }: Process): Promise<void> {
  for (let more = true; more;) {
    const step = await feed.step();
    expect(step.issues).toEqual([]);
    more = step.more;
  }
}

async function stopped(run: Process): Promise<Record<string, string[]>> {
  await run.feed.close();
  return dumpEveryTable(run.query);
}

const contexts: INestApplicationContext[] = [];

afterAll(async () => {
  for (const context of contexts) await context.close();
  await resetRedis(config.REDIS_URL, config.REDIS_PREFIX);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('a state group that fails during a catch-up', () => {
  it('is applied again once Postgres takes it, and the chunks stored and read meanwhile are all kept: every table as an uninterrupted run', async () => {
    const whole = await started();
    await runToTheEnd(whole);
    const uninterrupted = await stopped(whole);
    expect(uninterrupted['state_updates']!.length).toBe(UPDATES);
    expect(uninterrupted['fills']!.length).toBeGreaterThan(1_000);
    expect(uninterrupted['open_order_snapshots']!.length).toBeGreaterThan(20);
    const deliveries = uninterrupted['webhook_deliveries']!.map((row) => JSON.parse(row) as { event_type: string });
    expect(deliveries.filter((d) => d.event_type === 'state_updated').length).toBe(UPDATES);
    expect(deliveries.filter((d) => d.event_type === 'ledger_update').length).toBeGreaterThan(10);

    const failing = await started();
    // A real failure inside the state transaction: Postgres refuses the first update's PnL history (one of
    // its first writes) while the trigger stands, so the group fails while the next chunks are stored.
    await failing.query(
      `CREATE FUNCTION refuse_state_updates() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'state updates refused'; END $$`,
    );
    await failing.query(
      `CREATE TRIGGER refuse_state_updates BEFORE INSERT ON wallet_pnl_history FOR EACH STATEMENT EXECUTE FUNCTION refuse_state_updates()`,
    );
    let fillsAtFailure: number;
    try {
      // The first group (CATCH_UP_STATE_GROUP boundaries) is applied beside the next chunks; its failure
      // reaches the step that stores one of them, with the chunk after it read ahead.
      await expect(runToTheEnd(failing)).rejects.toThrow('state updates refused');
      fillsAtFailure = Number((await failing.query(`SELECT count(*)::int AS n FROM fills`))[0]!['n']);
      expect(await failing.query(`SELECT count(*)::int AS n FROM state_updates`)).toEqual([{ n: 0 }]);
    } finally {
      await failing.query(`DROP TRIGGER refuse_state_updates ON wallet_pnl_history`);
      await failing.query(`DROP FUNCTION refuse_state_updates()`);
    }
    // The failure reached a step before the last (one that read the next chunk ahead): some fills came after it.
    expect(UPDATES).toBeGreaterThan(CATCH_UP_STATE_GROUP);
    expect(fillsAtFailure).toBeGreaterThan(0);
    expect(fillsAtFailure).toBeLessThan(uninterrupted['fills']!.length);
    // The runner's next step, as after its wait: the same process goes on.
    await runToTheEnd(failing);
    const recovered = await stopped(failing);
    for (const table of Object.keys(uninterrupted)) expect([table, recovered[table]]).toEqual([table, uninterrupted[table]]);
    // A limit for a hang, not a speed: two simulations are stored on a machine of two shared cores.
  }, 600_000);
});
