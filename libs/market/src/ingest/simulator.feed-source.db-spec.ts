import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { parseBlockLine, simulate } from '#exchange';
import { JsonLogger } from '#runtime';
import { openFactsDatabase, startedWriter, useTestEnvironment } from '#testing';
import { FeedSourceAdapters } from './feed-source.adapters.js';
import { LIVE_TICK_MS } from './simulator.feed-source.js';

const config = useTestEnvironment();
let dataSource: DataSource;
let dataDir: string;

const NOW = Date.UTC(2026, 10, 20, 0, 0, 0);
const MINUTE = 60_000;
const START = NOW - 60 * MINUTE;
const SETTINGS = { seed: 3, wallets: 30, markets: 4, eventsPerSecond: 1 };
/** Exchange time per wall-clock time live: a wall-clock minute is an exchange hour. */
const SPEED = 60;

/** The fills of the simulation up to `untilMs`, counted from its lines through the real parser. */
function fillsUntil(untilMs: number): number {
  let fills = 0;
  for (const line of simulate({ ...SETTINGS, startTimeMs: START }, untilMs)) {
    if (line.stream !== 'node_fills_by_block') continue;
    const parsed = parseBlockLine(line.stream, line.line, {});
    if (!parsed.ok) throw new Error(`unparsable simulator line: ${parsed.error.message}`);
    fills += parsed.value.events.length;
  }
  return fills;
}

const count = async (table: string): Promise<number> => (await dataSource.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n;

beforeAll(async () => {
  ({ dataSource } = await openFactsDatabase(config.DATABASE_URL));
  dataDir = await mkdtemp(join(tmpdir(), 'tw-sim-feed-'));
});

afterAll(async () => {
  await dataSource?.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

describe('SimulatorFeedSource', () => {
  it('backfills to the clock, then runs live: at once while behind the clock, a tick apart once a chunk has reached it', async () => {
    let clock = NOW;
    const feed = (await startedWriter(dataSource, FeedSourceAdapters)).simulator(
      { dataDir, settings: SETTINGS, backfillDays: 1 / 24, stateIntervalMs: 15 * MINUTE, speed: SPEED, clock: () => clock },
      new JsonLogger('silent'),
    );
    expect([feed.name, feed.idleMs]).toEqual(['simulator', LIVE_TICK_MS]);
    expect(await feed.open()).toEqual({
      dataDir,
      seed: 3,
      wallets: 30,
      replayedFrom: new Date(START).toISOString(),
      reachedAt: new Date(START).toISOString(),
    });

    // The backfill asks for more at once until it has reached the clock, and for one step more, live: the
    // clock has not moved, so that one finds nothing to do and waits a tick.
    const backfill = [];
    for (let step = await feed.step(); ; step = await feed.step()) {
      expect(step.issues).toEqual([]);
      backfill.push(step);
      if (!step.more) break;
    }
    expect(backfill.length).toBeGreaterThan(4);
    expect(backfill.at(-1)).toEqual({ more: false, stored: null, issues: [], states: [] });
    const fills = backfill.reduce((n, step) => n + (step.stored?.['fills'] ?? 0), 0);
    expect(fills).toBe(fillsUntil(NOW));
    expect([await count('fills'), await count('state_updates')]).toEqual([fills, 4]);

    // Live: thirty wall-clock seconds are half an exchange hour. The chunk to the boundary on the way is
    // behind the clock (more at once); the one to the clock waits a tick, as does a step at the same time.
    clock += 30_000;
    expect((await feed.step()).more).toBe(true);
    expect((await feed.step()).more).toBe(false);
    expect((await feed.step()).more).toBe(false);
    await feed.close();
    expect([await count('fills'), await count('state_updates')]).toEqual([fillsUntil(NOW + 30 * MINUTE), 6]);
  });
});
