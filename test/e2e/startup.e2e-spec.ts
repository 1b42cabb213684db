import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { parseBlockLine, simulate, writeHlNodeLines, type SimLine, type SimulatorSettings } from '#exchange';
import { resetDatabase, useTestEnvironment } from '#testing';
import { run, type Run, waitFor } from '../support/app-process.js';

// Each test starts built processes and waits for them: minutes on a busy two-core machine. The limit only catches a hang.
jest.setTimeout(240_000);

/** How many fill events the lines hold (every line must parse: the simulator writes only valid blocks). */
function fillEvents(lines: Iterable<SimLine>): number {
  let fills = 0;
  for (const l of lines) {
    if (l.stream !== 'node_fills_by_block') continue;
    const parsed = parseBlockLine(l.stream, l.line, {});
    if (!parsed.ok) throw new Error(`simulated fills line does not parse: ${parsed.error.message}`);
    fills += parsed.value.events.length;
  }
  return fills;
}

/**
 * The fills an uninterrupted run stores for the simulation in `dir`: every block up to where its manifest says
 * the files reach, regenerated from the recorded settings (the simulator is deterministic). The files
 * themselves cannot be counted: the ingestor prunes the hours it has read.
 */
async function simulatedFills(dir: string): Promise<number> {
  const manifest = JSON.parse(await readFile(join(dir, 'simulator.json'), 'utf8')) as {
    settings: SimulatorSettings;
    writtenUntilMs: number;
  };
  return fillEvents(simulate(manifest.settings, manifest.writtenUntilMs));
}

describe('starting the apps from the build output', () => {
  const config = useTestEnvironment();
  beforeAll(() => resetDatabase(config.DATABASE_URL));
  const started: Run[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const r of started) if (r.child.exitCode === null) r.child.kill('SIGKILL');
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('runs the ingestor on the embedded simulator by default: fills and processed state updates appear, and a restart continues', async () => {
    const simulatorDir = await mkdtemp(join(tmpdir(), 'tidewatch-sim-'));
    dirs.push(simulatorDir);
    // Exchange time 600 times the wall clock and a state update every exchange minute: a few seconds show it all.
    const env = { SIM_DATA_DIR: simulatorDir, SIM_BACKFILL_DAYS: '0', SIM_SPEED: '600', STATE_UPDATE_INTERVAL: '1', SIM_WALLETS: '30' };
    const db = new pg.Client({ connectionString: config.DATABASE_URL });
    await db.connect();
    const processed = async (): Promise<{ height: number; fills: number; distinctFills: number; wallets: number }> => {
      const status = await db.query(`SELECT processed_height::int AS height FROM state_status`);
      const counts = await db.query(
        `SELECT (SELECT count(*)::int FROM fills) AS fills, (SELECT count(DISTINCT (tid, address))::int FROM fills) AS "distinctFills",
                (SELECT count(*)::int FROM wallets) AS wallets`,
      );
      return { height: status.rows[0]?.height ?? 0, ...counts.rows[0] };
    };
    const waitForHeightAbove = async (height: number) => {
      for (let i = 0; i < 600; i++) {
        const now = await processed();
        if (now.height > height && now.fills > 0) return now;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no state update above height ${height}`);
    };
    try {
      const first = run('ingestor', env);
      started.push(first);
      await waitFor(first, '"msg":"simulator feed started"');
      const before = await waitForHeightAbove(0);
      expect(before.wallets).toBe(30);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);

      // A stop finishes the chunk in progress, so everything written is stored.
      const stopped = await processed();
      expect(stopped.fills).toBe(await simulatedFills(simulatorDir));
      expect(stopped.distinctFills).toBe(stopped.fills);

      const second = run('ingestor', env);
      started.push(second);
      await waitForHeightAbove(stopped.height);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
      expect(second.output()).not.toContain('"level":"error"');
      // Exactly what one uninterrupted run writes up to the same point: nothing lost across the restart, nothing twice.
      const final = await processed();
      expect(final.fills).toBe(await simulatedFills(simulatorDir));
      expect(final.fills).toBeGreaterThan(stopped.fills);
      expect(final.distinctFills).toBe(final.fills);
    } finally {
      await db.end();
    }
  });

  it('runs the api alone: it migrates, listens, answers /health and stops cleanly on SIGTERM', async () => {
    const api = run('api', { PORT: '39871' });
    started.push(api);
    await waitFor(api, '"msg":"api listening"');
    const health = await fetch('http://127.0.0.1:39871/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(0);
  });

  it.each(['ingestor', 'dispatcher'])('runs the %s alone and stops cleanly on SIGTERM', async (app) => {
    const simulatorDir = await mkdtemp(join(tmpdir(), 'tidewatch-sim-'));
    dirs.push(simulatorDir);
    const proc = run(app, { SIM_DATA_DIR: simulatorDir, SIM_BACKFILL_DAYS: '0', SIM_WALLETS: '20' });
    started.push(proc);
    await waitFor(proc, `"msg":"${app} started"`);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  });

  it('names an unreachable Redis, its address and how to start it, and exits 1', async () => {
    const api = run('api', { REDIS_URL: 'redis://127.0.0.1:6399', PORT: '39872' });
    started.push(api);
    expect(await api.exited).toBe(1);
    expect(api.output()).toContain('tidewatch: Cannot reach Redis at redis://127.0.0.1:6399 (REDIS_URL)');
    expect(api.output()).toContain('docker compose up -d');
  });

  it('names an unreachable Postgres and exits 1', async () => {
    const api = run('api', { DATABASE_URL: 'postgres://postgres@127.0.0.1:5499/tidewatch', PORT: '39873' });
    started.push(api);
    expect(await api.exited).toBe(1);
    expect(api.output()).toContain('tidewatch: Cannot reach Postgres at postgres://postgres@127.0.0.1:5499/tidewatch (DATABASE_URL)');
    expect(api.output()).toContain('docker compose up -d');
  });

  it('runs the ingestor on an hl-node directory (EXCHANGE_SOURCE=node) until every fill is stored', async () => {
    const start = Date.UTC(2026, 5, 28, 8, 55);
    const lines = [...simulate({ seed: 3, startTimeMs: start, wallets: 40, markets: 4, eventsPerSecond: 1 }, start + 8 * 60_000)];
    const expected = fillEvents(lines);
    const dir = await mkdtemp(join(tmpdir(), 'tidewatch-ingestor-'));
    await resetDatabase(config.DATABASE_URL); // the simulator runs above stored fills of their own
    const db = new pg.Client({ connectionString: config.DATABASE_URL });
    await db.connect();
    try {
      await writeHlNodeLines(dir, lines);
      const ingestor = run('ingestor', { EXCHANGE_SOURCE: 'node', HL_NODE_DATA_DIR: dir });
      started.push(ingestor);
      await waitFor(ingestor, '"msg":"node feed started"');
      let stored = 0;
      for (let i = 0; i < 200 && stored < expected; i++) {
        stored = (await db.query('SELECT count(*)::int AS n FROM fills')).rows[0].n;
        if (stored < expected) await new Promise((r) => setTimeout(r, 100));
      }
      expect(expected).toBeGreaterThan(100);
      expect(stored).toBe(expected);
      ingestor.child.kill('SIGTERM');
      expect(await ingestor.exited).toBe(0);
      const checkpoints = (await db.query(`SELECT stream FROM feed_checkpoints WHERE source = 'node' ORDER BY stream`)).rows.map(
        (r) => r.stream,
      );
      expect(checkpoints).toEqual([
        'misc_events_by_block',
        'node_fills_by_block',
        'node_order_statuses_by_block',
        'node_twap_statuses_by_block',
      ]);
    } finally {
      await db.end();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses EXCHANGE_SOURCE=node without HL_NODE_DATA_DIR', async () => {
    const ingestor = run('ingestor', { EXCHANGE_SOURCE: 'node', HL_NODE_DATA_DIR: '' });
    started.push(ingestor);
    expect(await ingestor.exited).toBe(1);
    expect(ingestor.output()).toContain('HL_NODE_DATA_DIR=undefined: HL_NODE_DATA_DIR is required when EXCHANGE_SOURCE=node');
  });

  it('names an invalid setting and exits 1', async () => {
    const api = run('api', { PORT: 'eighty' });
    started.push(api);
    expect(await api.exited).toBe(1);
    expect(api.output()).toContain('tidewatch: Invalid settings:');
    expect(api.output()).toContain(
      'PORT="eighty": PORT must not be greater than 65535; PORT must not be less than 0; PORT must be an integer number',
    );
  });
});
