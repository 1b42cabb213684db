import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { AppConfig } from '#config';
import { backendsOf, processMs } from '../analytics/cpu-time.js';
import { BENCH_DIR, dropDatabase, INGESTOR_NODE_FLAGS, progress, recreateDatabase, stopServer } from '../support.js';
import { fillsIngestRate } from './fills-ingest.bench.js';

/**
 * `npm run bench -- first-start`: what a new user waits for. `npm start`'s build output on an empty
 * database and an empty simulator directory, with the default settings (SIM_BACKFILL_DAYS's default, or
 * BENCH_FIRST_START_DAYS); measured:
 * wall time until /health answers, and until the state status reaches the present (the update of the
 * newest state-update boundary before the launch is processed), with the fills stored by then. Beside it, the fills-ingest
 * rate (reader, parser and writer alone) of the same run: how much of the backfill's cost is the rest
 * (generation, state updates, projections, order snapshots). And the CPU used by then: the service's process
 * (all its threads) and the database's Postgres backends, so that a slower machine can be told from a
 * slower build, and the least time two fully busy cores would need for that work. Then, caught up, the
 * service's CPU per second of running live at real time. Last, the service stopped and started again on
 * the same database and directory: the time until it is live again (a fill stored at or after the
 * restart's launch time), and whether the simulator's saved state was used rather than the full replay.
 */
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tidewatch_bench_first_start';
const DEFAULT_DAYS = new AppConfig().SIM_BACKFILL_DAYS;
const BACKFILL_DAYS = process.env.BENCH_FIRST_START_DAYS ?? String(DEFAULT_DAYS);
const STATE_INTERVAL_MIN = 15;
const PORT = '3917';
const INGEST_FILLS = Number(process.env.BENCH_FIRST_START_INGEST_FILLS ?? 500_000);
const GIVE_UP_MS = 45 * 60_000;
/** The default's target (the present under a minute); a longer history is reported without one. */
const TARGET_SECONDS = Number(BACKFILL_DAYS) === DEFAULT_DAYS ? 60 : null;
const RESTART_TARGET_SECONDS = 10;
/** What the service logs when it replays the simulation from its start rather than its saved state. */
const REPLAYED_IN_FULL = "simulator's saved state not used";
/** After the present: time for the rest of the backfill to finish, then the live window measured. */
const SETTLE_MS = 15_000;
const LIVE_WINDOW_MS = 20_000;
// `npm start`'s entry point in the build output (BENCH_DIR is dist/bench).
const MAIN = join(BENCH_DIR, '..', 'apps', 'all-in-one', 'src', 'main.js');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function healthy(): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${PORT}/health`)).ok;
  } catch {
    return false;
  }
}

export async function firstStartBenchmark() {
  await recreateDatabase(DATABASE_URL);
  const simDir = mkdtempSync(join(tmpdir(), 'tidewatch-bench-first-start-'));
  const launchMs = Date.now();
  const intervalMs = STATE_INTERVAL_MIN * 60_000;
  // The update of the newest boundary before the launch: its state time is that of the boundary's last
  // block, at or just before the boundary, and after the previous boundary.
  const presentBoundary = Math.floor(launchMs / intervalMs) * intervalMs;
  // Both cores, as `npm start` on a user's machine (npm run bench pins itself to one).
  const profile = process.env.BENCH_FIRST_START_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_FIRST_START_PROFILE}`] : [];
  let lastProgress = '';
  let stderrTail: string[] = [];
  let replayedInFull = false;
  const launch = () => {
    const started = spawn('taskset', ['-c', '0,1', process.execPath, ...INGESTOR_NODE_FLAGS, ...profile, MAIN], {
      env: {
        ...process.env,
        DATABASE_URL,
        PORT,
        SIM_DATA_DIR: simDir,
        SIM_BACKFILL_DAYS: BACKFILL_DAYS,
        STATE_UPDATE_INTERVAL: String(STATE_INTERVAL_MIN),
        REDIS_PREFIX: 'twbenchfirst',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    started.stderr!.on('data', (chunk: Buffer) => {
      const lines = chunk
        .toString()
        .split(/[\r\n]/)
        .filter((l) => l.trim() !== '');
      stderrTail = [...stderrTail, ...lines].slice(-5);
      const bar = lines.filter((l) => l.includes('backfill')).at(-1);
      if (bar) lastProgress = bar.trim();
      if (lines.some((l) => l.includes(REPLAYED_IN_FULL))) replayedInFull = true;
    });
    return started;
  };
  let child = launch();
  const db = new pg.Client({ connectionString: DATABASE_URL });
  let healthSeconds: number | null = null;
  let presentSeconds: number | null = null;
  let fills: number;
  let stateUpdates: number;
  // Each backend's last reading: one that ends before the clock stops keeps what it had used.
  const database = new URL(DATABASE_URL).pathname.slice(1);
  const backendMs = new Map<string, number>();
  let serviceMs = 0;
  let liveCpuMsPerSecond: number;
  const restart: { healthSeconds: number | null; liveSeconds: number | null } = { healthSeconds: null, liveSeconds: null };
  const sampleCpu = () => {
    for (const [pid, ms] of backendsOf(database)) backendMs.set(pid, ms);
    serviceMs = Math.max(serviceMs, processMs(child.pid!));
  };
  try {
    await db.connect();
    let reported = Date.now();
    while (Date.now() - launchMs < GIVE_UP_MS) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${stderrTail.join('\n')}`);
      if (healthSeconds === null && (await healthy())) healthSeconds = (Date.now() - launchMs) / 1000;
      const status = await db.query<{ t: Date | null }>(`SELECT processed_state_time AS t FROM state_status`).then(
        (r) => r.rows[0]?.t ?? null,
        () => null,
      );
      sampleCpu();
      if (status !== null && status.getTime() > presentBoundary - intervalMs) {
        presentSeconds = (Date.now() - launchMs) / 1000;
        break;
      }
      if (Date.now() - reported > 15_000) {
        reported = Date.now();
        progress(`${Math.round((reported - launchMs) / 1000)} s: state at ${status?.toISOString() ?? 'none yet'}; ${lastProgress}`);
      }
      await sleep(250);
    }
    if (presentSeconds === null)
      throw new Error(`the state status did not reach the present within ${GIVE_UP_MS / 60_000} minutes: ${lastProgress}`);
    const counts = await db.query<{ fills: number; updates: number }>(
      `SELECT (SELECT count(*)::int FROM fills) AS fills, (SELECT count(*)::int FROM state_updates) AS updates`,
    );
    fills = counts.rows[0]!.fills;
    stateUpdates = counts.rows[0]!.updates;
    // Caught up, the simulator runs at real time: what the service costs then, beside the api it serves.
    await sleep(SETTLE_MS);
    const liveFrom = processMs(child.pid!);
    await sleep(LIVE_WINDOW_MS);
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} while running live:\n${stderrTail.join('\n')}`);
    liveCpuMsPerSecond = Math.round(((processMs(child.pid!) - liveFrom) / LIVE_WINDOW_MS) * 1000);

    // Stopped and started again: live once a fill of the exchange time after the relaunch is stored.
    await stopServer(child);
    const relaunchMs = Date.now();
    child = launch();
    while (restart.liveSeconds === null && Date.now() - relaunchMs < GIVE_UP_MS) {
      if (child.exitCode !== null) throw new Error(`the restarted service exited with ${child.exitCode}:\n${stderrTail.join('\n')}`);
      if (restart.healthSeconds === null && (await healthy())) restart.healthSeconds = (Date.now() - relaunchMs) / 1000;
      const newest = await db.query<{ t: Date | null }>(`SELECT max(time) AS t FROM fills`).then((r) => r.rows[0]?.t ?? null);
      if (newest !== null && newest.getTime() >= relaunchMs) restart.liveSeconds = (Date.now() - relaunchMs) / 1000;
      else await sleep(100);
    }
    if (restart.liveSeconds === null) throw new Error(`the restarted service was not live within ${GIVE_UP_MS / 60_000} minutes`);
  } finally {
    await stopServer(child);
    await db.end().catch(() => undefined);
    rmSync(simDir, { recursive: true, force: true });
    await dropDatabase(DATABASE_URL);
  }

  const ingest = await fillsIngestRate(INGEST_FILLS);
  const backfillRate = Math.round(fills / presentSeconds);
  const cpu = {
    serviceSeconds: serviceMs / 1000,
    postgresSeconds: [...backendMs.values()].reduce((a, b) => a + b, 0) / 1000,
  };
  const cpuSeconds = cpu.serviceSeconds + cpu.postgresSeconds;
  return {
    name: 'first-start',
    settings: { backfillDays: Number(BACKFILL_DAYS), stateIntervalMinutes: STATE_INTERVAL_MIN, ingestFills: INGEST_FILLS },
    healthSeconds,
    presentSeconds,
    fills,
    stateUpdates,
    backfillFillsPerSecond: backfillRate,
    ingest,
    cpu,
    liveCpuMsPerSecond,
    restart: { ...restart, savedStateUsed: !replayedInFull },
    target: {
      presentSeconds: TARGET_SECONDS,
      met: TARGET_SECONDS === null ? null : presentSeconds < TARGET_SECONDS,
      restartLiveSeconds: RESTART_TARGET_SECONDS,
      restartMet: restart.liveSeconds! < RESTART_TARGET_SECONDS && !replayedInFull,
    },
    table: [
      { measure: 'empty database to /health answering', value: healthSeconds === null ? 'never' : `${healthSeconds.toFixed(1)} s` },
      {
        measure: `empty database to the state status at the present (${BACKFILL_DAYS} days; ${TARGET_SECONDS === null ? 'no target' : `target < ${TARGET_SECONDS} s`})`,
        value: `${presentSeconds.toFixed(1)} s`,
      },
      { measure: 'fills and state updates stored by then', value: `${fills} fills, ${stateUpdates} state updates` },
      { measure: 'backfill fills/s (fills / time to the present)', value: backfillRate },
      {
        measure: `fills-ingest alone, same run (${ingest.fills} fills: reader, parser, writer)`,
        value: `${ingest.fillsPerSecond} fills/s`,
      },
      { measure: 'backfill / fills-ingest', value: (backfillRate / ingest.fillsPerSecond).toFixed(3) },
      {
        measure: 'CPU by then: service process (all threads) + its Postgres backends',
        value: `${cpu.serviceSeconds.toFixed(1)} s + ${cpu.postgresSeconds.toFixed(1)} s`,
      },
      { measure: 'cores busy on average (CPU / time to the present)', value: (cpuSeconds / presentSeconds).toFixed(2) },
      { measure: 'least time on 2 fully busy cores (CPU / 2)', value: `${(cpuSeconds / 2).toFixed(1)} s` },
      {
        measure: `then live at real time: service CPU (${LIVE_WINDOW_MS / 1000} s from ${SETTLE_MS / 1000} s after the present)`,
        value: `${liveCpuMsPerSecond} ms per second`,
      },
      {
        measure: `stopped and started again: to /health, to live (a fill at or after the relaunch; target < ${RESTART_TARGET_SECONDS} s)`,
        value: `${restart.healthSeconds?.toFixed(1) ?? 'never'} s, ${restart.liveSeconds!.toFixed(1)} s`,
      },
      { measure: "the restart resumed from the simulator's saved state", value: replayedInFull ? 'no: replayed from the start' : 'yes' },
    ],
  };
}
