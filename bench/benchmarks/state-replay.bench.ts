import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations, WRITER_SESSION } from '#database';
import { type ExchangeState, InProcessSimulatorEngine } from '#exchange';
import { CATCH_UP_STATE_GROUP, MarketStateWriter, openMarketWriteContext, type StateUpdateResult } from '#market';
import { progress, recreateDatabase } from '../support.js';

const DAYS = Number(process.env.BENCH_STATE_REPLAY_DAYS ?? 3);
const DATABASE_URL = process.env.BENCH_STATE_REPLAY_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tidewatch_bench_state_replay';
// The product's simulator defaults (SIM_* in app-config.ts).
const SETTINGS = { seed: 1, wallets: 300, markets: 8, eventsPerSecond: 1, startTimeMs: Date.UTC(2026, 10, 1) };
const INTERVAL_MS = 15 * 60_000;
/**
 * Columns of the wall clock, and serial ids (the order a statement inserts its rows in is its plan's), not
 * of the data.
 */
const NOT_DATA_COLUMNS = ['processed_at', 'id'];
/** Values of a sequence that never repeats one: each transaction takes the next (two groupings, two counts). */
const NOT_DATA_TABLES = ['migrations', 'read_versions'];

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
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND NOT c.relname = ANY($1) ORDER BY 1`,
    [NOT_DATA_TABLES],
  );
  const result: Record<string, string> = {};
  for (const { name } of tables) {
    const rows: Array<{ row: string }> = await dataSource.query(
      `SELECT (to_jsonb(t) - $1::text[])::text AS row FROM "${name}" t ORDER BY 1`,
      [NOT_DATA_COLUMNS],
    );
    if (rows.length > 0)
      result[name] = `${rows.length} rows ${createHash('sha256')
        .update(rows.map((r) => r.row).join('\n'))
        .digest('hex')
        .slice(0, 16)}`;
  }
  return result;
}

interface Replay {
  totalMs: number;
  steps: Record<string, number>;
  tables: Record<string, string>;
}

/**
 * The updates through MarketStateWriter on a new database, as the first start applies them: every update but
 * the last knows a later one follows. `group` updates go in one transaction (1: each on its own).
 */
async function replay(updates: ExchangeState[], options: { group: number }): Promise<Replay> {
  await recreateDatabase(DATABASE_URL);
  await runMigrations(DATABASE_URL);
  const dataSource = new DataSource(dataSourceOptions(DATABASE_URL, WRITER_SESSION));
  await dataSource.initialize();
  const context = await openMarketWriteContext(dataSource);
  const writer = context.get(MarketStateWriter);
  const steps: Record<string, number> = {};
  let total = 0;
  try {
    for (let i = 0; i < updates.length; i += options.group) {
      const group = updates.slice(i, i + options.group);
      const started = performance.now();
      const results: StateUpdateResult[] = await writer.applyGroup(group, {
        processedAt: new Date(group[group.length - 1]!.timeMs),
        laterUpdateFollows: i + options.group < updates.length,
      });
      total += performance.now() - started;
      for (const result of results) for (const [step, ms] of Object.entries(result.timings)) steps[step] = (steps[step] ?? 0) + ms;
      if (Math.floor((i + group.length) / 96) > Math.floor(i / 96)) progress(`${i + group.length} updates, ${Math.round(total)} ms`);
    }
    return { totalMs: Math.round(total), steps, tables: await digests(dataSource) };
  } finally {
    await context.close();
    await dataSource.destroy().catch(() => undefined);
  }
}

/**
 * `npm run bench -- state-replay`: the state updates of a first start alone (the simulator's 300 wallets
 * and 8 markets, an update every 15 minutes over DAYS days, without the fills) through MarketStateWriter
 * on the ingestor's session settings, side by side: one update a transaction, as live, and the catch-up's
 * groups of CATCH_UP_STATE_GROUP a transaction. Reported: each one's time, summed per step, and a digest of
 * every table written; the two must write the same rows (the run fails otherwise), and a change that must
 * not change what is written shows the same digests before and after.
 */
export async function stateReplayBenchmark() {
  const updates = await states();
  progress(`applying ${updates.length} state updates, each on its own`);
  const single = await replay(updates, { group: 1 });
  progress(`applying them in groups of ${CATCH_UP_STATE_GROUP}`);
  const grouped = await replay(updates, { group: CATCH_UP_STATE_GROUP });
  const differing = Object.keys({ ...single.tables, ...grouped.tables }).filter((table) => single.tables[table] !== grouped.tables[table]);
  if (differing.length > 0) throw new Error(`single and grouped updates wrote different rows in ${differing.join(', ')}`);
  const each = (ms: number) => `${ms} ms, ${(ms / updates.length).toFixed(1)} ms an update`;
  return {
    name: 'state-replay',
    settings: { ...SETTINGS, days: DAYS, updates: updates.length, group: CATCH_UP_STATE_GROUP },
    single: { totalMs: single.totalMs, steps: single.steps },
    grouped: { totalMs: grouped.totalMs, steps: grouped.steps },
    tables: single.tables,
    table: [
      {
        measure: `${updates.length} state updates (${SETTINGS.wallets} wallets, ${DAYS} days), each on its own`,
        value: each(single.totalMs),
      },
      { measure: `the same, in groups of ${CATCH_UP_STATE_GROUP}`, value: each(grouped.totalMs) },
      { measure: 'grouped / single', value: (grouped.totalMs / single.totalMs).toFixed(3) },
      ...Object.entries(single.steps).map(([step, ms]) => ({ measure: `single step: ${step}`, value: `${ms} ms` })),
      ...Object.entries(grouped.steps).map(([step, ms]) => ({ measure: `grouped step: ${step}`, value: `${ms} ms` })),
      ...Object.entries(single.tables).map(([table, digest]) => ({ measure: `table: ${table} (both)`, value: digest })),
    ],
  };
}
