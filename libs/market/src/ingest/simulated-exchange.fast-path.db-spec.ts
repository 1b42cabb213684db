import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { WorkerSimulatorEngine } from '#exchange';
import { openFactsDatabase, resetDatabase, startedWriter, useTestEnvironment } from '#testing';
import { openMarketWriteContext } from '../market-write.module.js';
import { FillProjector } from '../projections/fill.projector.js';
import { CATCH_UP_READ_AHEAD, SimulatedExchangeIngestion, type SimulationOptions } from './simulated-exchange.ingestion.js';

const config = useTestEnvironment();
let dataSource: DataSource;
const dirs: string[] = [];

const NOW = Date.UTC(2026, 10, 20, 0, 0, 0);
// Eight markets (HIP-3 ones included) and the default book of 5,000 resting orders, over two hours.
const SETTINGS = { seed: 5, wallets: 80, markets: 8, eventsPerSecond: 1 };
// The worker's build output (npm test builds before the suites run): a worker thread runs JavaScript.
const WORKER_URL = new URL('../../../../dist/libs/exchange/src/simulator/simulator.worker.js', import.meta.url);

/** Columns that hold a serial id or the wall-clock time of processing: not the data's, left out. */
const WALL_CLOCK_COLUMNS = ['id', 'processed_at', 'updated_at'];
/**
 * Partitions are compared through their parent; the migrations table is not data, nor are the read versions (values
 * of a sequence that never repeats a value, so the second run continues where the first stopped).
 */
const SKIPPED_TABLES = new Set([
  'migrations',
  'read_versions',
  'fills_2026_11',
  'fills_default',
  'open_order_intervals_closed',
  'open_order_intervals_current',
]);

/** Every table's rows as JSON text, sorted, without the wall-clock columns. */
async function dumpAll(): Promise<Record<string, string[]>> {
  const tables: Array<{ name: string }> = await dataSource.query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
  );
  const dump: Record<string, string[]> = {};
  for (const { name } of tables) {
    if (SKIPPED_TABLES.has(name)) continue;
    const rows: Array<{ row: string }> = await dataSource.query(
      `SELECT (to_jsonb(t) - $1::text[])::text AS row FROM "${name}" t ORDER BY 1`,
      [WALL_CLOCK_COLUMNS],
    );
    dump[name] = rows.map((r) => r.row);
  }
  return dump;
}

interface Run {
  tables: Record<string, string[]>;
  states: number;
  rankingsWritten: number;
  /** Projection windows, and those whose fills the facts writer had kept in the process. */
  windows: number;
  keptWindows: number;
}

/**
 * A new simulation of SETTINGS to NOW, stored with `options`, then projected to the end; `projectAlong`
 * projects after every chunk in the same process, as the ingestor does, instead of once at the end in
 * another.
 */
async function run(options: Partial<SimulationOptions>, projectAlong = false): Promise<Run> {
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
  await simulation.open({ dataDir, settings: SETTINGS, backfillDays: 2 / 24, stateIntervalMs: 15 * 60_000, ...options }, NOW);
  try {
    for (let chunk = await simulation.advance(NOW); chunk; chunk = await simulation.advance(NOW)) {
      expect(chunk.issues).toEqual([]);
      result.states += chunk.states.filter((s) => s.applied).length;
      // The writer reports the steps it ran.
      result.rankingsWritten += chunk.states.filter((s) => 'wallet rankings' in s.timings).length;
      if (projectAlong) await project(context.get(FillProjector));
    }
  } finally {
    await simulation.close();
  }
  await project(projectAlong ? context.get(FillProjector) : await startedWriter(dataSource, FillProjector));
  await context.close();
  result.tables = await dumpAll();
  return result;
}

beforeAll(async () => {
  ({ dataSource } = await openFactsDatabase(config.DATABASE_URL));
});

afterAll(async () => {
  await dataSource?.destroy();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('the simulated first start, fast path against slow path', () => {
  it('stores the same rows in every table whether chunks are made ahead on a worker, each read while the one before is stored, with state updates applied in groups of three overlapping the next chunk and leaving the latest-only tables to the last, projected along from the fills kept in memory, or one by one here and projected at the end from Postgres', async () => {
    const { tables: slow, states, rankingsWritten: slowRankings, keptWindows: slowKept } = await run({});
    expect(slow['fills']!.length).toBeGreaterThan(1_000);
    expect([states, slow['state_updates']!.length, slowRankings, slowKept]).toEqual([8, 8, 8, 0]);
    expect(slow['open_order_snapshots']!.length).toBeGreaterThan(20);
    // Every update is reported, the last one by the call after the last chunk.
    const fast = await run(
      {
        engine: (settings) => new WorkerSimulatorEngine(settings, WORKER_URL),
        readAhead: CATCH_UP_READ_AHEAD,
        overlapStateUpdates: true,
        overlapReading: true,
        deferLatestOnlyTables: true,
        stateGroup: 3,
      },
      true,
    );
    // Only the last update, which no planned boundary follows, wrote the rankings; every projection window
    // after the first (which tells the writer to keep the source's fills) took the fills kept in memory.
    expect([fast.states, fast.rankingsWritten, fast.keptWindows]).toEqual([8, 1, fast.windows - 1]);
    expect(fast.windows).toBeGreaterThan(4);
    for (const table of Object.keys(slow)) expect([table, fast.tables[table]]).toEqual([table, slow[table]]);
  });
});
