import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hlNodeFilePath, writeHlNodeLines } from './hl-node-writer.js';
import type { SimLine } from './simulator.types.js';

const line = (stream: SimLine['stream'], ms: number, n: number): SimLine => ({
  stream,
  line: `{"block_number":${n}}`,
  blockTime: new Date(ms).toISOString().slice(0, 23),
  blockTimeMs: ms,
  blockNumber: n,
});

describe('hl-node writer', () => {
  it('names files by UTC date and hour without a leading zero', () => {
    expect(hlNodeFilePath('/d', 'node_fills_by_block', Date.UTC(2026, 5, 28, 8, 43))).toBe('/d/node_fills_by_block/hourly/20260628/8');
    expect(hlNodeFilePath('/d', 'misc_events_by_block', Date.UTC(2026, 5, 28, 13, 0))).toBe('/d/misc_events_by_block/hourly/20260628/13');
    expect(hlNodeFilePath('/d', 'misc_events_by_block', Date.UTC(2026, 5, 29, 0, 0))).toBe('/d/misc_events_by_block/hourly/20260629/0');
    expect(hlNodeFilePath('', 'misc_events_by_block', Date.UTC(2026, 5, 29, 0, 59, 59, 999))).toBe(
      'misc_events_by_block/hourly/20260629/0',
    );
    expect(hlNodeFilePath('/d', 'misc_events_by_block', Date.UTC(2026, 5, 28, 23, 59, 59, 999))).toBe(
      '/d/misc_events_by_block/hourly/20260628/23',
    );
  });

  it('appends each line with a trailing newline to its hourly file, in order', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hl-sim-'));
    try {
      const h8 = Date.UTC(2026, 5, 28, 8, 59, 59);
      const h9 = Date.UTC(2026, 5, 28, 9, 0, 1);
      await writeHlNodeLines(dir, [
        line('node_fills_by_block', h8, 1),
        line('misc_events_by_block', h8, 1),
        line('node_fills_by_block', h9, 2),
      ]);
      await writeHlNodeLines(dir, [line('node_fills_by_block', h9, 3)]);
      expect((await readdir(join(dir, 'node_fills_by_block', 'hourly', '20260628'))).sort()).toEqual(['8', '9']);
      expect(await readFile(join(dir, 'node_fills_by_block/hourly/20260628/8'), 'utf8')).toBe('{"block_number":1}\n');
      expect(await readFile(join(dir, 'node_fills_by_block/hourly/20260628/9'), 'utf8')).toBe('{"block_number":2}\n{"block_number":3}\n');
      expect(await readFile(join(dir, 'misc_events_by_block/hourly/20260628/8'), 'utf8')).toBe('{"block_number":1}\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
