import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { WorkerSimulatorEngine } from '#exchange';
import { dumpEveryTable, openFactsDatabase, resetDatabase, startedWriter, useTestEnvironment } from '#testing';
import { openMarketWriteContext } from '../market-write.module.js';
import { FillProjector } from '../projections/fill.projector.js';
import { CATCH_UP_STATE_GROUP, SimulatedExchangeIngestion, type SimulationOptions } from './simulated-exchange.ingestion.js';

const config = useTestEnvironment();
let dataSource: DataSource;
const dirs: string[] = [];

const NOW = Date.UTC(2026, 10, 20, 0, 0, 0);
const MINUTE = 60_000;
// Eight markets (HIP-3 ones included) and the default book of 5,000 resting orders, over two hours.
const SETTINGS = { seed: 5, wallets: 80, markets: 8, eventsPerSecond: 1 };
const START = NOW - 120 * MINUTE;
/** Twelve state updates over the two hours: a catch-up applies a full group of them and then the rest. */
const STATE_INTERVAL_MS = 10 * MINUTE;
const UPDATES = 12;
/**
 * The live-like run's steps of exchange time: each asks only for what the clock has reached, so no later
 * boundary is ever planned. Not a divisor of the interval, so boundaries fall inside steps too.
 */
const LIVE_STEP_MS = 7 * MINUTE;
// The worker's build output (npm test builds before the suites run): a worker thread runs JavaScript.
const WORKER_URL = new URL('../../../../dist/libs/exchange/src/simulator/simulator.worker.js', import.meta.url);

interface Run {
  tables: Record<string, string[]>;
  states: number;
  rankingsWritten: number;
  /** Projection windows, and those whose fills the facts writer had kept in the process. */
  windows: number;
  keptWindows: number;
}

/**
 * A new simulation of SETTINGS to NOW, then projected to the end. A `catch-up` asks for NOW at once, as the
 * backfill does, with the simulator on a worker thread and a projection after every chunk in the same
 * process, as the ingestor does. A `live-like` run asks for the time in LIVE_STEP_MS steps, each to the end
 * (a live feed's ticks, faster), with the simulator in process, and projects once at the end in another.
 */
async function run(mode: 'catch-up' | 'live-like'): Promise<Run> {
  await resetDatabase(config.DATABASE_URL);
  const dataDir = await mkdtemp(join(tmpdir(), 'tw-sim-fast-'));
  dirs.push(dataDir);
  const context = await openMarketWriteContext(dataSource);
  const simulation = context.get(SimulatedExchangeIngestion);
  const result: Run = { tables: {}, states: 0, rankingsWritten: 0, windows: 0, keptWindows: 0 };
  const project = async (projector: FillProjector) => {
    for (let more = true; more;) {
      const window = await projector.project('simulator');
      if (window.fills > 0) result.windows++;
      if (window.keptFills) result.keptWindows++;
      more = window.more;
    }
  };
  const catchUp = mode === 'catch-up';
  const options: SimulationOptions = { dataDir, settings: SETTINGS, backfillDays: 2 / 24, stateIntervalMs: STATE_INTERVAL_MS };
  if (catchUp) options.engine = (settings) => new WorkerSimulatorEngine(settings, WORKER_URL);
  expect(await simulation.open(options, NOW)).toBe(START);
  const targets = [];
  for (let target = catchUp ? NOW : START + LIVE_STEP_MS; target < NOW; target += LIVE_STEP_MS) targets.push(target);
  targets.push(NOW);
  try {
    for (const target of targets) {
      for (let chunk = await simulation.step(target); chunk; chunk = await simulation.step(target)) {
        expect(chunk.issues).toEqual([]);
        result.states += chunk.states.filter((s) => s.applied).length;
        // The writer reports the steps it ran.
        result.rankingsWritten += chunk.states.filter((s) => 'wallet rankings' in s.timings).length;
        if (catchUp) await project(context.get(FillProjector));
      }
    }
  } finally {
    await simulation.close();
  }
  await project(catchUp ? context.get(FillProjector) : await startedWriter(dataSource, FillProjector));
  await context.close();
  // Every table but the wall-clock columns, and the open-order book as `dumpEveryTable` explains.
  result.tables = await dumpEveryTable((sql, params) => dataSource.query(sql, params));
  return result;
}

beforeAll(async () => {
  ({ dataSource } = await openFactsDatabase(config.DATABASE_URL));
});

afterAll(async () => {
  await dataSource?.destroy();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('the simulated first start, caught up in one go against advanced in live-like steps', () => {
  it('stores the same rows in every table whether caught up (chunks made ahead on a worker, each read while the one before is stored, state updates in groups overlapping the next chunks and leaving the latest-only tables to the last, projected along from the fills kept in memory) or advanced in small steps (each update applied on its own, writing every table, projected at the end from Postgres)', async () => {
    const live = await run('live-like');
    expect(live.tables['fills']!.length).toBeGreaterThan(1_000);
    expect([live.states, live.tables['state_updates']!.length, live.rankingsWritten, live.keptWindows]).toEqual([
      UPDATES,
      UPDATES,
      UPDATES,
      0,
    ]);
    expect(live.tables['open_order_snapshots']!.length).toBeGreaterThan(20);
    // Every update is reported, the last one by the call after the last chunk.
    const caughtUp = await run('catch-up');
    // A full group and the rest: only the last update, which no planned boundary follows, wrote the
    // rankings; every projection window after the first (which tells the writer to keep the source's
    // fills) took the fills kept in memory.
    expect(UPDATES).toBeGreaterThan(CATCH_UP_STATE_GROUP);
    expect([caughtUp.states, caughtUp.rankingsWritten, caughtUp.keptWindows]).toEqual([UPDATES, 1, caughtUp.windows - 1]);
    expect(caughtUp.windows).toBeGreaterThan(4);
    for (const table of Object.keys(live.tables)) expect([table, caughtUp.tables[table]]).toEqual([table, live.tables[table]]);
    // A limit for a hang, not a speed: two simulations are stored and projected, on a machine of two shared cores.
  }, 300_000);
});
