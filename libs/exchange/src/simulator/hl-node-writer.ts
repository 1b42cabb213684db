import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SimLine } from './simulator.types.js';

const HOUR_MS = 3_600_000;
// Asked for every line written, and the lines of an hour come together.
let lastHour = { hour: Number.NaN, name: '' };

/** `hourly/YYYYMMDD/H` for a block time: UTC date, hour without a leading zero, as hl-node names its files. */
export function hourlyFileName(blockTimeMs: number): string {
  const hour = Math.floor(blockTimeMs / HOUR_MS);
  if (hour !== lastHour.hour) {
    const start = new Date(hour * HOUR_MS);
    lastHour = { hour, name: `hourly/${start.toISOString().slice(0, 10).replaceAll('-', '')}/${start.getUTCHours()}` };
  }
  return lastHour.name;
}

/** `<dir>/<stream>/hourly/YYYYMMDD/H` for a block time. */
export function hlNodeFilePath(dir: string, stream: string, blockTimeMs: number): string {
  return join(dir, stream, hourlyFileName(blockTimeMs));
}

/**
 * Appends lines to their hourly files, one "\n"-terminated line each. Lines are grouped per file and
 * written in order with one append per file, so a reader tailing the files never sees a block of one
 * stream out of order.
 */
export async function writeHlNodeLines(dir: string, lines: Iterable<SimLine>): Promise<number> {
  const files = new Map<string, string[]>();
  let count = 0;
  for (const line of lines) {
    const path = hlNodeFilePath(dir, line.stream, line.blockTimeMs);
    let batch = files.get(path);
    if (!batch) files.set(path, (batch = []));
    batch.push(`${line.line}\n`);
    count++;
  }
  for (const [path, batch] of files) {
    await mkdir(join(path, '..'), { recursive: true });
    await appendFile(path, batch.join(''));
  }
  return count;
}
