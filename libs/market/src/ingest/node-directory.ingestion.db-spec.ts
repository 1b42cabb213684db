import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { parseBlockLine, simulate, writeHlNodeLines, type SimLine } from '#exchange';
import { dumpTables, FACT_TABLES, resetDatabase, startedWriter, useTestEnvironment } from '#testing';
import { NodeDirectoryIngestion } from './node-directory.ingestion.js';

const config = useTestEnvironment();
const START = Date.UTC(2026, 5, 28, 8, 50);
const SETTINGS = { seed: 11, startTimeMs: START, wallets: 80, markets: 6, eventsPerSecond: 1 };

/** Fill events in simulator lines, counted with the parser independently of the code under test. */
function fillEvents(lines: SimLine[]): number {
  let n = 0;
  for (const line of lines) {
    if (line.stream !== 'node_fills_by_block') continue;
    const parsed = parseBlockLine(line.stream, line.line, {});
    if (parsed.ok) n += parsed.value.events.length;
  }
  return n;
}

async function drain(ingestion: NodeDirectoryIngestion, dir: string, perStream: number, maxSteps = Infinity): Promise<number> {
  let steps = 0;
  while (steps < maxSteps) {
    const step = await ingestion.step(dir, perStream);
    if (step.issues.length) throw new Error(`feed issues: ${step.issues.map((i) => i.message).join('; ')}`);
    if (step.blocks === 0) break;
    steps++;
  }
  return steps;
}

describe('NodeDirectoryIngestion on a real hl-node directory layout', () => {
  let dataSource: DataSource;
  const dirs: string[] = [];
  const newDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tidewatch-node-'));
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    dataSource = new DataSource(dataSourceOptions(config.DATABASE_URL));
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('stores every fill of the directory, and a process killed between batches resumes without loss or duplicates', async () => {
    const lines = [...simulate(SETTINGS, START + 20 * 60_000)]; // crosses 09:00, so two hourly files per stream
    const firstHalf = lines.filter((l) => l.blockTimeMs < START + 12 * 60_000);
    const secondHalf = lines.slice(firstHalf.length);

    // The reference: one uninterrupted process over the whole directory.
    await resetDatabase(config.DATABASE_URL);
    const whole = await newDir();
    await writeHlNodeLines(whole, lines);
    await drain(await startedWriter(dataSource, NodeDirectoryIngestion), whole, 50);
    const reference = await dumpTables(dataSource, FACT_TABLES);
    expect(reference.fills).toHaveLength(fillEvents(lines));

    // The same data, but the node is still writing and the ingestor is killed twice.
    await resetDatabase(config.DATABASE_URL);
    const live = await newDir();
    await writeHlNodeLines(live, firstHalf);
    expect(await drain(await startedWriter(dataSource, NodeDirectoryIngestion), live, 7, 3)).toBe(3); // killed after 3 batches
    await drain(await startedWriter(dataSource, NodeDirectoryIngestion), live, 7); // restarted: reads to the end
    await writeHlNodeLines(live, secondHalf);
    expect(await drain(await startedWriter(dataSource, NodeDirectoryIngestion), live, 7, 2)).toBe(2); // killed again
    await drain(await startedWriter(dataSource, NodeDirectoryIngestion), live, 7);

    const resumed = await dumpTables(dataSource, FACT_TABLES);
    expect(resumed.fills).toHaveLength(fillEvents(lines));
    expect(resumed).toEqual(reference);
  });
});
