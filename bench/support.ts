import autocannon from 'autocannon';
import { NestFactory } from '@nestjs/core';
import { ConsumerService } from '#auth';
import { loadConfig } from '#config';
import { runMigrations } from '#database';
import { preflight, resetRedisPrefix } from '#runtime';
import { CliModule } from '../apps/cli/src/cli.module.js';
import { ChildProcess, spawn } from 'node:child_process';
import pg from 'pg';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
/**
 * The V8 setting the ingestor runs with (package.json's start scripts; npm run bench runs with it too,
 * since the matcher and the writers run in the bench process): a 64 MB young generation. A batch's
 * deliveries all live until its commit, and with the default 16 MB each scavenge copied them all.
 */
export const INGESTOR_NODE_FLAGS = ['--max-semi-space-size=64'];

/** Results go to the source tree's bench/results, not dist's. */
export const RESULTS_DIR = join(BENCH_DIR, '..', '..', 'bench', 'results');

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/**
 * Starts a bench server as its own process pinned to CPU 0, while the load generator (this process,
 * pinned by `npm run bench`) runs on CPU 1: on a 2-core machine this keeps the two from stealing
 * each other's core, which otherwise makes runs differ by tens of percent.
 */
export async function startServer(script: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn('taskset', ['-c', '0', process.execPath, join(BENCH_DIR, 'servers', script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
  return child;
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export async function load(
  url: string,
  options: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const result = await autocannon({ url, connections: options.connections, duration: options.seconds, headers: options.headers });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function progress(message: string): void {
  process.stderr.write(`  ${message}\n`);
}

export function writeResult(name: string, result: unknown): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}

export function printTable(rows: Array<Record<string, string | number>>): void {
  const columns = Object.keys(rows[0]);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(columns.map((c) => String(row[c] ?? ''))));
}

/** Runs `work` on the server's `postgres` database, the one to create and drop others from. */
async function onServer(databaseUrl: string, work: (admin: pg.Client, name: string) => Promise<void>): Promise<void> {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await work(admin, name);
  } finally {
    await admin.end();
  }
}

/** A database of its own for a benchmark, created empty (dropped first if a run left one behind). */
export function recreateDatabase(databaseUrl: string): Promise<void> {
  return onServer(databaseUrl, async (admin, name) => {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  });
}

export function dropDatabase(databaseUrl: string): Promise<void> {
  return onServer(databaseUrl, async (admin, name) => {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}

/**
 * Points this process at a benchmark's settings, migrates, empties its Redis keys and creates a consumer
 * whose custom limits the load cannot reach, so every request runs the whole pipeline and is answered by
 * the route. Returns its token.
 */
export async function benchConsumerToken(env: Record<string, string>, name: string): Promise<string> {
  Object.assign(process.env, env);
  const config = loadConfig();
  await preflight(config);
  await runMigrations(config.DATABASE_URL);
  await resetRedisPrefix(config.REDIS_URL, config.REDIS_PREFIX);
  const app = await NestFactory.createApplicationContext(CliModule, { logger: false });
  try {
    const { token } = await app
      .get(ConsumerService)
      .create({ name, plan: 'tier4', rateLimitPerMinute: 1_000_000_000, usageLimit: 1_000_000_000_000 });
    return token;
  } finally {
    await app.close();
  }
}
