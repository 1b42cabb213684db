import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';
import type { SqlRunner } from '#database';
import { median } from '../support.js';
import { sqlRunner } from './analytics-database.js';
import type { AnalyticsSettings } from './analytics-dataset.js';
import type { QueryInputs } from './analytics-endpoints.js';
import { type CpuTimes, cpuPerRequest, cpuTimes } from './cpu-time.js';

export interface Measured {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** loadSql with `cpuOf`: CPU per call of this process (its clients) and of the database's backends. */
  cpu?: CpuTimes;
  /** Timed as one request on its own, not under load (the analytics bench's ALONE_LIMIT_MS). */
  alone?: boolean;
}

/**
 * autocannon on `paths` in turn (each request takes the next, so the connections spread over the
 * variants instead of asking for one cached row together). A redirect is not followed; with
 * `redirects` a 3xx counts as success (the export routes answer 302), otherwise only a 2xx does, and any
 * other answer or error fails the run.
 */
export async function loadPaths(
  origin: string,
  paths: readonly string[],
  options: { connections: number; seconds: number; headers: Record<string, string>; redirects?: boolean; warmUp?: boolean },
): Promise<Measured> {
  let next = 0;
  const result = await autocannon({
    url: origin,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers,
    // A slow route under load must show as slow, not as failed.
    timeout: 120,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }],
  });
  const failed = result['1xx'] + result['4xx'] + result['5xx'] + (options.redirects ? 0 : result['3xx']) + result.errors + result.timeouts;
  if (failed > 0) {
    const codes = Object.entries(result.statusCodeStats ?? {})
      .map(([code, s]) => `${code}: ${s.count}`)
      .join(', ');
    throw new Error(
      `${paths[0]}: ${failed} failed requests (status counts ${codes}; ${result.errors} errors, ${result.timeouts} timeouts)`,
    );
  }
  const ok = result['2xx'] + (options.redirects ? result['3xx'] : 0);
  // A warm-up of a route slower than its length completes nothing, and that is no failure.
  if (ok === 0 && !options.warmUp) throw new Error(`${paths[0]}: no request completed in ${options.seconds} s`);
  return { requests: ok, requestsPerSecond: ok / result.duration, p50Ms: result.latency.p50, p99Ms: result.latency.p99 };
}

/**
 * The same work straight against Postgres: `concurrency` loops, each on a pg client of its own, calling
 * `run` back to back for `seconds` (after `warmUpSeconds` of the same); latency is each call's round
 * trip as this process sees it, results parsed as the api's driver parses them.
 */
export async function loadSql(
  databaseUrl: string,
  run: (q: SqlRunner, i: number) => Promise<unknown>,
  options: { concurrency: number; seconds: number; warmUpSeconds: number; cpuOf?: string },
): Promise<Measured> {
  const clients = await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      return client;
    }),
  );
  try {
    let call = 0;
    const loops = async (seconds: number, latencies: number[] | null): Promise<number> => {
      const started = performance.now();
      const until = started + seconds * 1000;
      await Promise.all(
        clients.map(async (client) => {
          const q = sqlRunner(client);
          while (performance.now() < until) {
            const t0 = performance.now();
            await run(q, call++);
            latencies?.push(performance.now() - t0);
          }
        }),
      );
      return (performance.now() - started) / 1000;
    };
    await loops(options.warmUpSeconds, null);
    const latencies: number[] = [];
    // Read while the clients are connected: a backend's time goes with it when it ends.
    const before = options.cpuOf === undefined ? null : cpuTimes(process.pid, options.cpuOf);
    const elapsed = await loops(options.seconds, latencies);
    const cpu = before && { ...cpuPerRequest(before, cpuTimes(process.pid, options.cpuOf!), latencies.length), loadMs: 0 };
    latencies.sort((a, b) => a - b);
    return {
      requests: latencies.length,
      requestsPerSecond: latencies.length / elapsed,
      p50Ms: median(latencies),
      p99Ms: latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.99) - 1)]!,
      ...(cpu ? { cpu } : {}),
    };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}

/** What the bench asks of the SQL client process (bench/servers/analytics-sql.client.ts): one heavy route's own SQL under load. */
export interface SqlLoadRequest {
  databaseUrl: string;
  settings: AnalyticsSettings;
  inputs: QueryInputs;
  bigCoin: string;
  endpoint: string;
  options: { concurrency: number; seconds: number; warmUpSeconds: number; cpuOf?: string };
}

/** loadSql run by the SQL client process (bench/servers/analytics-sql.client.ts, on the api's core). */
export function sqlLoad(client: ChildProcess, request: SqlLoadRequest): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`the SQL client exited with ${code}`));
    client.once('exit', exited);
    client.once('message', (result) => {
      client.off('exit', exited);
      resolve(result as Measured);
    });
    client.send(request);
  });
}
