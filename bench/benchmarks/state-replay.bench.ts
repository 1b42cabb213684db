import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations, WRITER_SESSION } from '#database';
import { type ExchangeState, InProcessSimulatorEngine } from '#exchange';
import { MarketStateWriter, openMarketWriteContext } from '#market';
import { progress, recreateDatabase } from '../support.js';

const DAYS = Number(process.env.BENCH_STATE_REPLAY_DAYS ?? 3);
const DATABASE_URL = process.env.BENCH_STATE_REPLAY_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tidewatch_bench_state_replay';
// The product's simulator defaults (SIM_* in app-config.ts).
const SETTINGS = { seed: 1, wallets: 300, markets: 8, eventsPerSecond: 1, startTimeMs: Date.UTC(2026, 10, 1) };
const INTERVAL_MS = 15 * 60_000;
/** Columns of the wall clock, not of the data. */
const WALL_CLOCK_COLUMNS = ['processed_at'];

/** The simulator's books at every state-update boundary of DAYS days, made once and kept in the temp directory. */
async function states(): Promise<ExchangeState[]> {
  const key = createHash('sha256').update(JSON.stringify({ SETTINGS, DAYS, INTERVAL_MS })).digest('hex').slice(0, 16);
  const file = join(tmpdir(), `tidewatch-bench-states-${key}.json`);
  if (existsSync(file)) {
    progress(`reusing the states in ${file}`);
    return JSON.parse(readFileSync(file, 'utf8')) as ExchangeState[];
  }
  const engine = new InProcessSimulatorEngine(SETTINGS);
  const made: ExchangeState[] = [];
  for (let at = SETTINGS.startTimeMs + INTERVAL_MS; at <= SETTINGS.startTimeMs + DAYS * 86_400_000; at += INTERVAL_MS) {
    made.push((await engine.generate(at, true)).state!);
    if (made.length % 96 === 0) progress(`simulated ${made.length / 96} of ${DAYS} days`);
  }
  writeFileSync(file, JSON.stringify(made));
  return made;
}

/** Every table the state writer fills, as sorted JSON rows, hashed: equal digests, equal tables. */
async function digests(dataSource: DataSource): Promise<Record<string, string>> {
  const tables: Array<{ name: string }> = await dataSource.query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> 'migrations' ORDER BY 1`,
  );
  const result: Record<string, string> = {};
  for (const { name } of tables) {
    const rows: Array<{ row: string }> = await dataSource.query(`SELECT (to_jsonb(t) - $1::text[])::text AS row FROM "${name}" t ORDER BY 1`, [WALL_CLOCK_COLUMNS]);
    if (rows.length > 0) result[name] = `${rows.length} rows ${createHash('sha256').update(rows.map((r) => r.row).join('\n')).digest('hex').slice(0, 16)}`;
  }
  return result;
}

/**
 * `npm run bench -- state-replay`: the state updates of a first start alone (the simulator's 300 wallets
 * and 8 markets, an update every 15 minutes over DAYS days, without the fills) through MarketStateWriter
 * on the ingestor's session settings, each but the last told a later one follows, as a catch-up does: the
 * milliseconds of each step summed over the updates, and a digest of every table written, to show that a
 * change to the writer's SQL leaves the same rows.
 */
export async function stateReplayBenchmark() {
  const updates = await states();
  await recreateDatabase(DATABASE_URL);
  await runMigrations(DATABASE_URL);
  const dataSource = new DataSource(dataSourceOptions(DATABASE_URL, WRITER_SESSION));
  await dataSource.initialize();
  const context = await openMarketWriteContext(dataSource);
  const writer = context.get(MarketStateWriter);
  const steps: Record<string, number> = {};
  let total = 0;
  try {
    progress(`applying ${updates.length} state updates`);
    for (const [i, state] of updates.entries()) {
      const started = performance.now();
      // As the first start applies them: every update but the last knows a later one follows.
      const result = await writer.apply(state, { processedAt: new Date(state.timeMs), laterUpdateFollows: i < updates.length - 1 });
      total += performance.now() - started;
      for (const [step, ms] of Object.entries(result.timings)) steps[step] = (steps[step] ?? 0) + ms;
      if ((i + 1) % 96 === 0) progress(`${i + 1} updates, ${Math.round(total)} ms`);
    }
    const tables = await digests(dataSource);
    return {
      name: 'state-replay',
      settings: { ...SETTINGS, days: DAYS, updates: updates.length },
      totalMs: Math.round(total),
      steps,
      tables,
      table: [
        { measure: `${updates.length} state updates (${SETTINGS.wallets} wallets, ${DAYS} days)`, value: `${Math.round(total)} ms, ${(total / updates.length).toFixed(1)} ms each` },
        ...Object.entries(steps).map(([step, ms]) => ({ measure: `step: ${step}`, value: `${ms} ms` })),
        ...Object.entries(tables).map(([table, digest]) => ({ measure: `table: ${table}`, value: digest })),
      ],
    };
  } finally {
    await context.close();
    await dataSource.destroy().catch(() => undefined);
  }
}
