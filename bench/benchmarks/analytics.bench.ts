import { rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ensureAnalyticsDataset, sqlRunner } from '../analytics/analytics-database.js';
import { type DerivedTablesInfo, ensureDerivedTables } from '../analytics/analytics-derived-tables.js';
import { AnalyticsDataset, analyticsSettings } from '../analytics/analytics-dataset.js';
import { analyticsEndpoints, type DatasetTables, type Endpoint, type QueryInputs } from '../analytics/analytics-endpoints.js';
import { type ExportTiming, timeExport } from '../analytics/analytics-exports.js';
import { type CpuTimes, cpuPerRequest, cpuTimes } from '../analytics/cpu-time.js';
import { loadPaths, loadSql, type Measured, sqlLoad } from '../analytics/analytics-load.js';
import { benchConsumerToken, median, progress, startServer, stopServer } from '../support.js';

/**
 * `npm run bench -- analytics`: the analytics routes of the real api on an exchange-scale dataset
 * (bench/analytics: 200,000 wallets, 500,000 open positions, 10 million fills, 30 days of state
 * updates by default, loaded once and kept): latency and throughput of each route under 16 connections,
 * the time an export takes to build its file, and the heavy routes against their own SQL run straight
 * on Postgres at the same concurrency.
 */
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tidewatch_bench_analytics';
const DATABASE = new URL(DATABASE_URL).pathname.slice(1);
const CONNECTIONS = 16;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARM_UP_SECONDS = 2;
const EXPORT_RUNS = 5;
/** The api's port; `BENCH_ANALYTICS_PORT` when another run's server holds the default. */
const PORT = Number(process.env.BENCH_ANALYTICS_PORT ?? 3921);
const TARGET = { listP99Ms: 50, exportMs: 2_000, sqlRatio: 1.5 };
/**
 * A route (or its SQL) that takes longer than this on its own is timed once, not loaded at 16 connections:
 * its requests would outlast the run by minutes, and what they left running would weigh on the next routes.
 * With the cache off, so is a route whose 16 requests, sharing two cores, would not finish within the warm-up.
 */
const ALONE_LIMIT_MS = Number(process.env.BENCH_ANALYTICS_ALONE_LIMIT_MS ?? 1_500);
const EXPORT_DIR = join(tmpdir(), 'tidewatch-bench-analytics-exports');
/** `BENCH_ANALYTICS_ONLY=fills,positions?address`: only the endpoints whose name contains one of these, for a quick look. */
const ONLY = process.env.BENCH_ANALYTICS_ONLY?.split(',').filter(Boolean);
/**
 * `BENCH_ANALYTICS_ROUTES=base|derived|all` (default all): the routes over the base tables, those over the
 * derived tables, or both; the derived tables are loaded only when their routes run.
 */
const ROUTES = process.env.BENCH_ANALYTICS_ROUTES ?? 'all';
if (!['base', 'derived', 'all'].includes(ROUTES)) throw new Error(`BENCH_ANALYTICS_ROUTES must be base, derived or all, got ${ROUTES}`);
const TABLES: DatasetTables[] = ROUTES === 'all' ? ['base', 'derived'] : [ROUTES as DatasetTables];
/** A snapshot time this far inside the routes' 30 days of the wall clock stays valid for a whole run. */
const SNAPSHOT_MARGIN_MS = 3_600_000;

/**
 * The api's read cache in MB (`READ_CACHE_MB`, default as in production). Nothing writes during the run, so with
 * the cache on a route's answers are rendered once per variant and then reused, as between two commits of
 * the live service; `BENCH_ANALYTICS_READ_CACHE_MB=0` measures every request rendered from Postgres.
 */
const READ_CACHE_MB = process.env.BENCH_ANALYTICS_READ_CACHE_MB ?? '256';
const CACHE_ON = READ_CACHE_MB !== '0';
/** `BENCH_ANALYTICS_SQL=0` leaves out the heavy routes' own SQL runs (the same in every run of the same data), for a second run of the routes alone. */
const SQL_RUNS = process.env.BENCH_ANALYTICS_SQL !== '0';

const ENV = {
  DATABASE_URL,
  READ_CACHE_MB,
  REDIS_PREFIX: 'twbench-analytics',
  JWT_SECRET: 'tidewatch-bench-secret-0123456789',
  LOG_LEVEL: 'info',
  EXPORT_STORE: 'local',
  EXPORT_DIR,
};

/** Wallets the address routes ask for, and the market with the most open positions, read from the loaded data. */
async function queryInputs(derived: DerivedTablesInfo | null, endMs: number): Promise<QueryInputs & { bigCoin: string }> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const column = async (sql: string) => (await client.query<{ v: string }>(sql)).rows.map((r) => r.v);
    return {
      liquidationAddresses: await column(
        `SELECT address AS v FROM fills WHERE liquidated_user IS NOT NULL GROUP BY address ORDER BY count(*) DESC, address LIMIT 8`,
      ),
      positionWallets: await column(`SELECT address AS v FROM wallets WHERE count_open_positions >= 3 ORDER BY address LIMIT 64`),
      bigCoin: (await column(`SELECT coin AS v FROM positions WHERE close_time IS NULL GROUP BY coin ORDER BY count(*) DESC LIMIT 1`))[0]!,
      ...(derived && {
        closedTradeWallets: await column(
          `SELECT address AS v FROM closed_trades WHERE close_time > '${new Date(endMs - 7 * 86_400_000).toISOString()}' GROUP BY address ORDER BY count(*) DESC, address LIMIT 8`,
        ),
        busiestTradeWallets: await column(
          `SELECT address AS v FROM closed_trades GROUP BY address ORDER BY count(*) DESC, address LIMIT 8`,
        ),
        builders: await column(`SELECT builder AS v FROM builder_totals ORDER BY fills DESC, builder LIMIT 8`),
        // The oldest snapshot a route still serves: 30 days before the wall clock (rounded up to the grid, with a margin) or the oldest stored.
        oldestSnapshotMs: Math.max(
          Number((await column(`SELECT (extract(epoch FROM min(snapshot_ts)) * 1000)::bigint::text AS v FROM open_order_snapshots`))[0]),
          Math.ceil((Date.now() - 30 * 86_400_000 + SNAPSHOT_MARGIN_MS) / 300_000) * 300_000,
        ),
      }),
    };
  } finally {
    await client.end();
  }
}

const ms = (value: number): string => value.toFixed(1);
const row = (endpoint: string, m: Measured | null, target: string, met: boolean | null, cpu?: CpuTimes) => ({
  endpoint,
  'p50 ms': m ? `${ms(m.p50Ms)}${m.alone ? ' (1 request alone)' : ''}` : '',
  'p99 ms': m ? (m.alone ? '' : ms(m.p99Ms)) : '',
  'req/s': m ? Math.round(m.requestsPerSecond) : '',
  target,
  'met?': met === null ? '' : met ? 'yes' : 'NO',
  // For a SQL row, the first is the process running the 16 clients.
  'CPU ms/req api, pg, load': cpu ? `${cpu.apiMs}, ${cpu.postgresMs}, ${cpu.loadMs}` : '',
});

export async function analyticsBenchmark() {
  const settings = analyticsSettings();
  const dataset = await ensureAnalyticsDataset(DATABASE_URL, settings, progress);
  const derived = TABLES.includes('derived')
    ? await ensureDerivedTables(DATABASE_URL, new AnalyticsDataset(settings), dataset, progress)
    : null;
  const inputs = await queryInputs(derived, settings.endMs);
  const endpoints = analyticsEndpoints(new AnalyticsDataset(settings), inputs, inputs.bigCoin)
    .filter((e) => TABLES.includes(e.tables))
    .filter((e) => !ONLY || ONLY.some((name) => e.name.includes(name)));
  const token = await benchConsumerToken(ENV, 'bench-analytics');
  const headers = { authorization: `Bearer ${token}` };
  const origin = `http://127.0.0.1:${PORT}`;

  // The machine's load when the run began and ended: other work on a shared 2-core host shows in every figure.
  const loadAverage = { before: os.loadavg().map((l) => Number(l.toFixed(2))), after: [] as number[] };
  const measured = new Map<Endpoint, Measured>();
  /** Each variant's first request, in ms (only the first variant's with the cache off). */
  const rendering = new Map<Endpoint, number[]>();
  const cpu = new Map<Endpoint, CpuTimes>();
  const exports: ExportTiming[] = [];
  const server = await startServer('segments-api.server.js', { ...ENV, PORT: String(PORT) });
  try {
    for (const endpoint of endpoints) {
      const options = { connections: CONNECTIONS, headers, redirects: endpoint.redirects };
      // An export's file is built by the first request; the load measures the route once it is (the build is timed below).
      if (endpoint.redirects) await fetch(`${origin}${endpoint.paths[0]}`, { headers, redirect: 'manual' });
      if (!endpoint.redirects) {
        // With the cache on, each variant's first request renders it (as the first request after a commit does), timed one by one.
        const times: number[] = [];
        for (const path of CACHE_ON ? endpoint.paths : endpoint.paths.slice(0, 1)) {
          const started = performance.now();
          const response = await fetch(`${origin}${path}`, { headers });
          await response.arrayBuffer();
          if (!response.ok) throw new Error(`${path}: ${response.status}`);
          times.push(performance.now() - started);
        }
        rendering.set(endpoint, times);
        const alone = Math.max(...times);
        if (CACHE_ON)
          progress(`${endpoint.name}: rendered ${times.length} variants, median ${ms(median(times))} ms, slowest ${ms(alone)} ms`);
        // Without the cache, 16 connections of a route this slow queue for longer than the warm-up: timed alone too.
        if (!CACHE_ON && (alone > ALONE_LIMIT_MS || (alone * CONNECTIONS) / 2 > WARM_UP_SECONDS * 1000)) {
          measured.set(endpoint, { requests: 1, requestsPerSecond: 1000 / alone, p50Ms: alone, p99Ms: alone, alone: true });
          progress(`${endpoint.name}: ${ms(alone)} ms alone: timed once, not loaded`);
          continue;
        }
      }
      await loadPaths(origin, endpoint.paths, { ...options, seconds: WARM_UP_SECONDS, warmUp: true });
      const before = cpuTimes(server.pid!, DATABASE);
      const result = await loadPaths(origin, endpoint.paths, { ...options, seconds: SECONDS });
      measured.set(endpoint, result);
      cpu.set(endpoint, cpuPerRequest(before, cpuTimes(server.pid!, DATABASE), result.requests));
      progress(`${endpoint.name}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${ms(result.p50Ms)} ms, p99 ${ms(result.p99Ms)} ms`);
    }
    for (const endpoint of endpoints.filter((e) => e.redirects)) {
      const timing = await timeExport(origin, endpoint.paths[0]!, token, EXPORT_DIR, EXPORT_RUNS);
      exports.push(timing);
      progress(`${timing.path}: file ready in ${timing.runsMs.join(', ')} ms (${timing.bytes} bytes)`);
    }
  } finally {
    await stopServer(server);
    await rm(EXPORT_DIR, { recursive: true, force: true });
  }

  // Each heavy route's own SQL, twice: from a process on the api's core, as the api ran it (the ratio's
  // reference), and, as the first runs measured it, from this process on the other core (docs/benchmarks.md).
  const sql = new Map<Endpoint, { measured: Measured; cpu: CpuTimes }>();
  const sqlOtherCore = new Map<Endpoint, { measured: Measured; cpu: CpuTimes }>();
  const sqlClient = await startServer('analytics-sql.client.js', {});
  try {
    for (const endpoint of endpoints.filter((e) => e.sql && SQL_RUNS)) {
      if (measured.get(endpoint)!.alone || Math.max(...(rendering.get(endpoint) ?? [0])) > ALONE_LIMIT_MS) {
        const client = new pg.Client({ connectionString: DATABASE_URL });
        await client.connect();
        const started = performance.now();
        await endpoint.sql!(sqlRunner(client), 0).finally(() => client.end());
        const alone = performance.now() - started;
        const once = { requests: 1, requestsPerSecond: 1000 / alone, p50Ms: alone, p99Ms: alone, alone: true };
        sql.set(endpoint, { measured: once, cpu: { apiMs: 0, postgresMs: 0, loadMs: 0 } });
        sqlOtherCore.set(endpoint, { measured: once, cpu: { apiMs: 0, postgresMs: 0, loadMs: 0 } });
        progress(`SQL of ${endpoint.name}, alone: ${ms(alone)} ms`);
        continue;
      }
      const request = { databaseUrl: DATABASE_URL, settings, inputs, bigCoin: inputs.bigCoin, endpoint: endpoint.name };
      const options = { concurrency: CONNECTIONS, seconds: SECONDS, warmUpSeconds: WARM_UP_SECONDS, cpuOf: DATABASE };
      const measuredOnApiCore = await sqlLoad(sqlClient, { ...request, options });
      sql.set(endpoint, { measured: measuredOnApiCore, cpu: measuredOnApiCore.cpu! });
      progress(
        `SQL of ${endpoint.name} on the api's core: ${Math.round(measuredOnApiCore.requestsPerSecond)} q/s, p50 ${ms(measuredOnApiCore.p50Ms)} ms, p99 ${ms(measuredOnApiCore.p99Ms)} ms`,
      );

      const measuredHere = await loadSql(DATABASE_URL, endpoint.sql!, options);
      sqlOtherCore.set(endpoint, { measured: measuredHere, cpu: measuredHere.cpu! });
      progress(
        `SQL of ${endpoint.name} from the bench process: ${Math.round(measuredHere.requestsPerSecond)} q/s, p50 ${ms(measuredHere.p50Ms)} ms, p99 ${ms(measuredHere.p99Ms)} ms`,
      );
    }
  } finally {
    await stopServer(sqlClient);
  }

  loadAverage.after = os.loadavg().map((l) => Number(l.toFixed(2)));
  const table: Array<Record<string, string | number>> = [];
  const ratios = [];
  for (const endpoint of endpoints) {
    const e = measured.get(endpoint)!;
    const c = cpu.get(endpoint);
    table.push(
      endpoint.list
        ? row(endpoint.name, e, `p99 < ${TARGET.listP99Ms} ms`, e.p99Ms < TARGET.listP99Ms, c)
        : row(endpoint.name, e, '', null, c),
    );
    const times = rendering.get(endpoint);
    if (CACHE_ON && times) {
      table.push({
        endpoint: `  first request of each of its ${times.length} variants (rendered), median and slowest`,
        'p50 ms': ms(median(times)),
        'p99 ms': ms(Math.max(...times)),
        'req/s': '',
        target: '',
        'met?': '',
      });
    }
    const own = sql.get(endpoint);
    if (!own) continue;
    const s = own.measured;
    const p50 = e.p50Ms / s.p50Ms;
    const throughput = e.requestsPerSecond / s.requestsPerSecond;
    const met = p50 <= TARGET.sqlRatio && throughput >= 1 / TARGET.sqlRatio;
    const other = sqlOtherCore.get(endpoint)!;
    table.push(row(s.alone ? '  its SQL, alone' : "  its SQL, clients on the api's core", s, '', null, s.alone ? undefined : own.cpu));
    table.push({
      endpoint: '  endpoint / SQL: p50, req/s',
      'p50 ms': `${p50.toFixed(2)}x`,
      'p99 ms': '',
      'req/s': `${throughput.toFixed(2)}x`,
      target: `within ${TARGET.sqlRatio}x`,
      'met?': met ? 'yes' : 'NO',
    });
    if (s.alone) continue;
    table.push(row('  its SQL, clients on the other core', other.measured, '', null, other.cpu));
    table.push({
      endpoint: '  endpoint / SQL there: p50, req/s',
      'p50 ms': `${(e.p50Ms / other.measured.p50Ms).toFixed(2)}x`,
      'p99 ms': '',
      'req/s': `${(e.requestsPerSecond / other.measured.requestsPerSecond).toFixed(2)}x`,
    });
    ratios.push({
      endpoint: endpoint.name,
      sql: s,
      sqlCpuPerRequest: own.cpu,
      p50Ratio: Number(p50.toFixed(3)),
      requestsPerSecondRatio: Number(throughput.toFixed(3)),
      met,
      sqlFromTheOtherCore: { ...other.measured, cpuPerRequest: other.cpu },
    });
  }
  for (const timing of exports) {
    table.push({
      endpoint: `${timing.path.replace('/api/external/', '')}: file ready, first request (median of ${EXPORT_RUNS})`,
      'p50 ms': ms(timing.medianMs),
      'p99 ms': ms(Math.max(...timing.runsMs)),
      'req/s': '',
      target: `< ${TARGET.exportMs} ms`,
      'met?': timing.medianMs < TARGET.exportMs ? 'yes' : 'NO',
    });
  }
  table.push({
    endpoint: `api read cache: ${READ_CACHE_MB === '0' ? 'off' : `${READ_CACHE_MB} MB`}`,
    'p50 ms': '',
    'p99 ms': '',
    'req/s': '',
    target: '',
    'met?': '',
  });
  table.push({
    endpoint: `dataset load: ${dataset.loadSeconds.total} s${dataset.reused ? " (an earlier run's, reused)" : ''}`,
    'p50 ms': '',
    'p99 ms': '',
    'req/s': '',
    target: '',
    'met?': '',
  });
  if (derived)
    table.push({
      endpoint: `derived tables load: ${derived.loadSeconds.total} s${derived.reused ? " (an earlier run's, reused)" : ''}`,
      'p50 ms': '',
      'p99 ms': '',
      'req/s': '',
      target: '',
      'met?': '',
    });

  return {
    name: 'analytics',
    settings: {
      ...settings,
      routes: ROUTES,
      readCacheMb: Number(READ_CACHE_MB),
      connections: CONNECTIONS,
      secondsPerRun: SECONDS,
      warmUpSeconds: WARM_UP_SECONDS,
      exportRuns: EXPORT_RUNS,
      inputs,
    },
    dataset,
    derivedTables: derived,
    loadAverage,
    endpoints: endpoints.map((e) => ({
      name: e.name,
      paths: e.paths,
      list: e.list,
      ...measured.get(e)!,
      cpuPerRequest: cpu.get(e),
      firstRequestsMs: rendering.get(e),
    })),
    sqlRatios: ratios,
    exports,
    target: TARGET,
    table,
  };
}
