import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '#database';
import { NodeDirectoryIngestion, openMarketWriteContext } from '#market';
import { backendCpuTicks, copyFileToTable, copyTableToFile, cpuSecondsBetween } from '../fills/bench-database.js';
import { cachedNodeFillsDirectory, type NodeFillsSettings } from '../fills/node-fills.generator.js';
import { dropDatabase, progress, recreateDatabase } from '../support.js';

/**
 * `npm run bench -- fills-ingest`: fills per second from a generated hl-node directory (BENCH_FILLS fills,
 * default 2,000,000) through the real feed, parser and facts writer into Postgres, against the rate of a
 * plain COPY of the same rows into the same table in the same run. CPU columns: this process, and the
 * Postgres processes serving the bench database.
 */
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tidewatch_bench_fills';
const SETTINGS: NodeFillsSettings = {
  fills: Number(process.env.BENCH_FILLS ?? 2_000_000),
  seed: 1,
  // Two hours of blocks from here cross midnight into July: three hourly files and two monthly partitions.
  startTimeMs: Date.UTC(2026, 5, 30, 22, 45),
  wallets: 50_000,
};
// As apps/ingestor's node feed runner polls; 250 to 2,000 measured alike here.
const BLOCKS_PER_STREAM = Number(process.env.BENCH_BLOCKS_PER_STREAM ?? 500);
const TARGET = { fillsPerSecond: 20_000, ratio: 0.5 };

interface Phase {
  seconds: number;
  nodeCpuSeconds: number;
  postgresCpuSeconds: number;
}

/** Wall time of `work`, with the CPU this process and the database's server processes spent on it. */
async function measure<T>(client: pg.Client, work: () => Promise<T>): Promise<{ result: T; phase: Phase }> {
  const pgBefore = await backendCpuTicks(client);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const postgresCpuSeconds = cpuSecondsBetween(pgBefore, await backendCpuTicks(client));
  return { result, phase: { seconds, nodeCpuSeconds: (cpu.user + cpu.system) / 1e6, postgresCpuSeconds } };
}

const count = async (client: pg.Client): Promise<number> =>
  (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM fills`)).rows[0]!.n;

/** Ingests the directory as the ingestor does: step after step until the feed has nothing new. */
async function ingest(dataSource: DataSource, dir: string, expected: number): Promise<{ stored: number; steps: number }> {
  const ingestion = (await openMarketWriteContext(dataSource)).get(NodeDirectoryIngestion);
  const started = performance.now();
  let reported = started;
  let stored = 0;
  let steps = 0;
  for (;;) {
    const step = await ingestion.step(dir, BLOCKS_PER_STREAM);
    if (step.issues.length > 0)
      throw new Error(
        `feed issues: ${step.issues
          .slice(0, 3)
          .map((i) => i.message)
          .join('; ')}`,
      );
    if (step.blocks === 0) break;
    stored += step.written!.fills;
    steps++;
    if (performance.now() - reported > 5_000) {
      reported = performance.now();
      progress(`ingested ${stored} of ${expected} fills, ${Math.round(stored / ((reported - started) / 1000))} fills/s`);
    }
  }
  return { stored, steps };
}

const round = (value: number, dp: number): number => Number(value.toFixed(dp));
const summary = (fills: number, phase: Phase) => ({
  fills,
  seconds: round(phase.seconds, 2),
  fillsPerSecond: Math.round(fills / phase.seconds),
  nodeCpuSeconds: round(phase.nodeCpuSeconds, 2),
  postgresCpuSeconds: round(phase.postgresCpuSeconds, 2),
});
const row = (path: string, fills: number, phase: Phase) => ({
  path,
  fills,
  seconds: phase.seconds.toFixed(1),
  'fills/s': Math.round(fills / phase.seconds),
  'node CPU s': phase.nodeCpuSeconds.toFixed(1),
  'postgres CPU s': phase.postgresCpuSeconds.toFixed(1),
});

/**
 * The ingest rate alone (no COPY comparison) of `fills` generated fills, on a database of its own: the
 * figure other benchmarks print beside their own (first-start).
 */
export async function fillsIngestRate(fills: number): Promise<{ fills: number; seconds: number; fillsPerSecond: number }> {
  const generated = cachedNodeFillsDirectory({ ...SETTINGS, fills }, progress);
  const databaseUrl = `${DATABASE_URL}_rate`;
  await recreateDatabase(databaseUrl);
  await runMigrations(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const dataSource = await new DataSource(dataSourceOptions(databaseUrl)).initialize();
  try {
    progress(`fills-ingest: ${generated.fills} fills through NodeDirectoryIngestion, ${BLOCKS_PER_STREAM} blocks per step`);
    const ingested = await measure(client, () => ingest(dataSource, generated.dir, generated.fills));
    if (ingested.result.stored !== generated.fills)
      throw new Error(`generated ${generated.fills} fills, the writer stored ${ingested.result.stored}`);
    return {
      fills: generated.fills,
      seconds: round(ingested.phase.seconds, 2),
      fillsPerSecond: Math.round(generated.fills / ingested.phase.seconds),
    };
  } finally {
    await dataSource.destroy();
    await client.end();
    await dropDatabase(databaseUrl);
  }
}

export async function fillsIngestBenchmark() {
  const generated = cachedNodeFillsDirectory(SETTINGS, progress);
  progress(
    `directory: ${generated.dir} (${generated.fills} fills in ${generated.blocks} blocks, ${generated.files} hourly files, ${(generated.bytes / 2 ** 20).toFixed(0)} MiB)`,
  );

  await recreateDatabase(DATABASE_URL);
  await runMigrations(DATABASE_URL);
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  const dataSource = new DataSource(dataSourceOptions(DATABASE_URL));
  await dataSource.initialize();
  const copyFile = join(tmpdir(), `tidewatch-bench-fills-copy-${process.pid}.txt`);
  try {
    // Each measured phase starts with no dirty buffers of the one before.
    await client.query('CHECKPOINT');
    progress(`ingesting through NodeDirectoryIngestion, ${BLOCKS_PER_STREAM} blocks per step`);
    const ingested = await measure(client, () => ingest(dataSource, generated.dir, generated.fills));
    const storedRows = await count(client);
    if (ingested.result.stored !== generated.fills || storedRows !== generated.fills) {
      throw new Error(`generated ${generated.fills} fills, the writer reported ${ingested.result.stored}, the table holds ${storedRows}`);
    }
    progress(`ingested ${storedRows} fills in ${ingested.phase.seconds.toFixed(1)} s`);

    // The raw rate: the very rows the ingestion stored, as COPY text, into the same table emptied (same
    // partitions, primary key and indexes), in one COPY FROM STDIN.
    progress('exporting the stored rows as COPY text');
    await copyTableToFile(client, 'fills', copyFile);
    await client.query('TRUNCATE fills');
    await client.query('CHECKPOINT');
    progress('COPY FROM STDIN into the emptied table');
    const copied = await measure(client, () => copyFileToTable(client, copyFile, 'fills'));
    const copiedRows = await count(client);
    if (copied.result !== generated.fills || copiedRows !== generated.fills)
      throw new Error(`COPY reported ${copied.result} rows, the table holds ${copiedRows}`);
    progress(`copied ${copiedRows} fills in ${copied.phase.seconds.toFixed(1)} s`);

    const ingestRate = generated.fills / ingested.phase.seconds;
    const ratio = ingestRate / (generated.fills / copied.phase.seconds);
    return {
      name: 'fills-ingest',
      settings: {
        ...SETTINGS,
        blocksPerStream: BLOCKS_PER_STREAM,
        generatedBlocks: generated.blocks,
        hourlyFiles: generated.files,
        bytes: generated.bytes,
      },
      ingest: { ...summary(generated.fills, ingested.phase), transactions: ingested.result.steps },
      copy: summary(generated.fills, copied.phase),
      ratio: round(ratio, 3),
      target: { ...TARGET, met: ingestRate >= TARGET.fillsPerSecond && ratio >= TARGET.ratio },
      table: [
        row('hl-node dir -> parser -> NodeDirectoryIngestion', generated.fills, ingested.phase),
        row('COPY FROM STDIN, same rows and table', generated.fills, copied.phase),
        {
          path: `ingest / COPY (target >= ${TARGET.ratio})`,
          fills: '',
          seconds: '',
          'fills/s': ratio.toFixed(3),
          'node CPU s': '',
          'postgres CPU s': '',
        },
      ],
    };
  } finally {
    rmSync(copyFile, { force: true });
    await dataSource.destroy();
    await client.end();
    await dropDatabase(DATABASE_URL);
  }
}
