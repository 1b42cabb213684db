import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { HyperliquidSimulator, parseBlockLine, simulate, type SimulatorSettings } from '#exchange';
import { dumpTables, FACT_TABLES, openFactsDatabase, resetDatabase, startedWriter, useTestEnvironment } from '#testing';
import { CATCH_UP_STATE_GROUP, SimulatedExchangeIngestion, type SimulationOptions } from './simulated-exchange.ingestion.js';

// Each test runs a catch-up (or two) of simulated hours: minutes on a busy two-core machine. The limit only catches a hang.
jest.setTimeout(240_000);

const config = useTestEnvironment();
let dataSource: DataSource;
const dirs: string[] = [];

const NOW = Date.UTC(2026, 10, 20, 0, 0, 0);
const HOUR = 3_600_000;
const SETTINGS = { seed: 11, wallets: 40, markets: 4, eventsPerSecond: 1 };
const START = NOW - 3 * HOUR; // backfillDays 0.125 from NOW, already a whole hour

async function options(): Promise<SimulationOptions> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tw-sim-'));
  dirs.push(dataDir);
  return { dataDir, settings: SETTINGS, backfillDays: 3 / 24, stateIntervalMs: 15 * 60_000 };
}

function ingestion(): Promise<SimulatedExchangeIngestion> {
  return startedWriter(dataSource, SimulatedExchangeIngestion);
}

async function runTo(simulation: SimulatedExchangeIngestion, untilMs: number): Promise<number> {
  let states = 0;
  for (let chunk = await simulation.step(untilMs); chunk; chunk = await simulation.step(untilMs)) {
    expect(chunk.issues).toEqual([]);
    states += chunk.states.filter((s) => s.applied).length;
  }
  return states;
}

const TABLES = {
  fills: 'tid, address',
  twap_statuses: 'twap_id, status, block_number',
  ledger_updates: 'hash, address, type',
  funding_payments: 'address, coin, time',
  market_prices: 'coin',
  wallets: 'address',
  cohort_position_snapshots: 'coin, cohort_id, timeframe, created_at',
  market_snapshots: 'created_at',
  wallets_equity_history: 'created_at',
  holder_history: 'address, created_at',
};

/** Tables whose rows carry a serial id or the wall-clock processing time, compared without them. */
async function dumpDerived(): Promise<Record<string, unknown[]>> {
  return {
    ...(await dumpTables(dataSource, TABLES)),
    positions: await dataSource.query(
      `SELECT address, coin, side, size::text, value::text, open_time, close_time, created_at FROM positions ORDER BY address, coin, open_time`,
    ),
    state_updates: await dataSource.query(
      `SELECT height, state_time, hype_px::text, wallets, positions FROM state_updates ORDER BY height`,
    ),
  };
}

/** From an empty database to NOW in one process: what the other runs are compared with. */
async function runUninterrupted(): Promise<void> {
  await resetDatabase(config.DATABASE_URL);
  const whole = await ingestion();
  await whole.open(await options(), NOW);
  await runTo(whole, NOW);
}

beforeAll(async () => {
  ({ dataSource } = await openFactsDatabase(config.DATABASE_URL));
});

afterAll(async () => {
  await dataSource?.destroy();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('SimulatedExchangeIngestion', () => {
  it('writes, ingests and applies the state every 15 minutes of exchange time, as the simulator says', async () => {
    await resetDatabase(config.DATABASE_URL);
    const opts = await options();
    const simulation = await ingestion();
    expect(await simulation.open(opts, NOW)).toBe(START);
    expect(await runTo(simulation, NOW)).toBe(12);

    // The same simulation run on its own: its fills, counted from the lines through the real parser.
    const settings: SimulatorSettings = { ...SETTINGS, startTimeMs: START };
    const keys = new Set<string>();
    for (const line of simulate(settings, NOW)) {
      if (line.stream !== 'node_fills_by_block') continue;
      const parsed = parseBlockLine('node_fills_by_block', line.line, {});
      if (!parsed.ok || parsed.value.stream !== 'node_fills_by_block') throw new Error('unparsable simulator line');
      for (const event of parsed.value.events) keys.add(`${event.fill.tid}|${event.address}`);
    }
    expect(keys.size).toBeGreaterThan(1000);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM fills`)).toEqual([{ n: keys.size }]);

    const reference = new HyperliquidSimulator(settings);
    for (const _line of reference.run(NOW)) void _line;
    const traders = reference.walletStates().filter((w) => w.role !== 'maker');
    const openPositions = traders.reduce((n, w) => n + w.positions.length, 0);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM wallets`)).toEqual([{ n: 40 }]);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM positions WHERE close_time IS NULL`)).toEqual([{ n: openPositions }]);
    const [status] = await dataSource.query(`SELECT processed_height::text AS height, processed_state_time FROM state_status`);
    expect(status).toEqual({ height: String(reference.height), processed_state_time: new Date(reference.nowMs) });
    // Every perp equity in the database is the simulator's own figure for that wallet.
    const stored: Array<{ address: string; perp_equity: string }> = await dataSource.query(
      `SELECT address, perp_equity::text FROM wallets`,
    );
    const equity = new Map(traders.map((w) => [w.address, w.perpEquity]));
    for (const row of stored) expect([row.address, row.perp_equity]).toEqual([row.address, equity.get(row.address)]);

    // Files the feed has read past are pruned: each stream keeps its current hour at most plus the next.
    const hourly = join(opts.dataDir, 'node_fills_by_block', 'hourly');
    const files = (await Promise.all((await readdir(hourly)).map((d) => readdir(join(hourly, d))))).flat();
    expect(files.length).toBeLessThanOrEqual(2);
  });

  it('continues after a restart exactly as an uninterrupted run', async () => {
    await runUninterrupted();
    const uninterrupted = await dumpDerived();

    await resetDatabase(config.DATABASE_URL);
    const opts = await options();
    const first = await ingestion();
    await first.open(opts, NOW);
    await runTo(first, NOW - HOUR - 7 * 60_000);
    // A new process: the simulator is replayed from its settings, the feed resumes from its checkpoints.
    const second = await ingestion();
    expect(await second.open(opts, NOW + 5 * HOUR)).toBe(NOW - HOUR - 7 * 60_000);
    await runTo(second, NOW);
    expect(await dumpDerived()).toEqual(uninterrupted);
  });

  it('holds the state updates of a catch-up for a group, a stop applies those held, and a new process continues as an uninterrupted run', async () => {
    await runUninterrupted();
    const uninterrupted = await dumpDerived();

    await resetDatabase(config.DATABASE_URL);
    const opts = await options();
    const first = await ingestion();
    await first.open(opts, NOW);
    expect(CATCH_UP_STATE_GROUP).toBeGreaterThan(7);
    // Six chunks towards NOW, each ending on a boundary that later planned boundaries follow: their updates
    // are held for a group of CATCH_UP_STATE_GROUP, none applied yet.
    let applied = 0;
    for (let i = 0; i < 6; i++) applied += (await first.step(NOW))!.states.filter((st) => st.applied).length;
    expect(applied).toBe(0);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM state_updates`)).toEqual([{ n: 0 }]);
    // The stop stores the seventh chunk too, read while the sixth was stored (its lines are in the files),
    // and applies the seven updates held.
    await first.close();
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM state_updates`)).toEqual([{ n: 7 }]);
    const second = await ingestion();
    expect(await second.open(opts, NOW + 5 * HOUR)).toBe(START + 7 * 15 * 60_000);
    await runTo(second, NOW);
    expect(await dumpDerived()).toEqual(uninterrupted);
  });

  it('reading each chunk while the one before is stored, loses nothing when a store fails and is retried', async () => {
    await runUninterrupted();
    const uninterrupted = await dumpTables(dataSource, FACT_TABLES);

    await resetDatabase(config.DATABASE_URL);
    const simulation = await ingestion();
    await simulation.open(await options(), NOW);
    await runTo(simulation, NOW - 2 * HOUR);
    // A real failure of the facts transaction: Postgres refuses the next fills while the trigger stands.
    await dataSource.query(
      `CREATE FUNCTION refuse_fills() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'fills refused'; END $$`,
    );
    await dataSource.query(`CREATE TRIGGER refuse_fills BEFORE INSERT ON fills FOR EACH STATEMENT EXECUTE FUNCTION refuse_fills()`);
    try {
      await expect(runTo(simulation, NOW)).rejects.toThrow('fills refused');
    } finally {
      await dataSource.query(`DROP TRIGGER refuse_fills ON fills`);
      await dataSource.query(`DROP FUNCTION refuse_fills()`);
    }
    await runTo(simulation, NOW);
    await simulation.close();
    expect(await dumpTables(dataSource, FACT_TABLES)).toEqual(uninterrupted);
  });

  it('starts a new simulation when the database has read nothing of the one in the directory', async () => {
    await resetDatabase(config.DATABASE_URL);
    const opts = await options();
    const first = await ingestion();
    await first.open(opts, NOW);
    await runTo(first, START + HOUR);
    const fills = await dataSource.query(`SELECT count(*)::int AS n FROM fills`);
    await resetDatabase(config.DATABASE_URL);
    const again = await ingestion();
    expect(await again.open({ ...opts, settings: { ...SETTINGS, seed: 12 } }, NOW + HOUR)).toBe(START + HOUR);
    await resetDatabase(config.DATABASE_URL);
    // Same settings: the same simulation again from its (new) start, every fill stored anew.
    const third = await ingestion();
    expect(await third.open(opts, NOW)).toBe(START);
    await runTo(third, START + HOUR);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM fills`)).toEqual(fills);
  });

  it('refuses a directory made with other settings, saying which', async () => {
    await resetDatabase(config.DATABASE_URL);
    const opts = await options();
    const first = await ingestion();
    await first.open(opts, NOW);
    await runTo(first, START + 15 * 60_000);
    await expect((await ingestion()).open({ ...opts, settings: { ...SETTINGS, seed: 12 } }, NOW)).rejects.toThrow(
      /holds a simulation made with .*"seed":11.*not .*"seed":12/,
    );
  });
});
