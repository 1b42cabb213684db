import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { address, feedBlock, fillsBlock, openFactsDatabase, resetDatabase, useTestEnvironment, wireFill, type WireFill } from '#testing';
import { ExchangeFactsWriter } from '../facts/exchange-facts.writer.js';
import { openMarketWriteContext } from '../market-write.module.js';
import { ProjectionInputsRepository } from './projection-inputs.repository.js';
import { numericText, RecentFillsBuffer } from './recent-fills.buffer.js';

const config = useTestEnvironment();
let dataSource: DataSource;
let context: INestApplicationContext;
let writer: ExchangeFactsWriter;
let kept: RecentFillsBuffer;

const T = Date.UTC(2026, 10, 20, 12, 0, 0);
const A = address(0xa1);
// Upper-case hex on the wire: both ways give it lower-cased.
const B = `0x${'B2'.repeat(20)}`;
const SOURCE = 'simulator';

/** Block n of the fills stream: its fills out of (time, tid, address) order, numbers in odd wire forms. */
function block(n: number, extra: Array<[string, WireFill]> = []) {
  const at = T + n * 1_000;
  return fillsBlock(n, at, [
    [
      B,
      wireFill({
        coin: 'ETH',
        px: '0031.50',
        sz: '2.000',
        side: 'A',
        time: at,
        tid: n * 10 + 2,
        startPosition: '-0.0',
        closedPnl: '-000.10',
        fee: '0.00',
      }),
    ],
    [
      A,
      wireFill({
        coin: 'BTC',
        px: '100',
        sz: '0.5',
        side: 'B',
        time: at,
        tid: n * 10 + 2,
        startPosition: '1.25',
        closedPnl: '-0',
        fee: '-0.010',
      }),
    ],
    [A, wireFill({ coin: 'BTC', px: '99.9', sz: '1', side: 'B', time: at - 1, tid: n * 10 + 5 })],
    [A, wireFill({ coin: 'BTC', px: '99.8', sz: '1', side: 'A', time: at - 1, tid: n * 10 + 4 })],
    ...extra,
  ]);
}

async function store(...blocks: ReturnType<typeof block>[]): Promise<void> {
  await writer.writeBlocks(
    blocks.map((b) => feedBlock('node_fills_by_block', b, b.blockNumber)),
    SOURCE,
  );
}

/** What Postgres gives the projection for the window. */
function stored(after: number, upTo: number) {
  return dataSource.transaction((q) => context.get(ProjectionInputsRepository).fills(q, after, upTo));
}

beforeAll(async () => {
  ({ dataSource } = await openFactsDatabase(config.DATABASE_URL));
});

beforeEach(async () => {
  await resetDatabase(config.DATABASE_URL);
  await context?.close();
  context = await openMarketWriteContext(dataSource);
  writer = context.get(ExchangeFactsWriter);
  kept = context.get(RecentFillsBuffer);
});

afterAll(async () => {
  await context?.close();
  await dataSource?.destroy();
});

describe('RecentFillsBuffer', () => {
  it('gives a window exactly as Postgres does, once the projection has asked for its source', async () => {
    expect(kept.take(SOURCE, -1, 2)).toBeNull();
    await store(block(1), block(2));
    await store(block(3));
    for (const [after, upTo] of [
      [-1, 3],
      [0, 2],
      [1, 3],
      [2, 3],
    ] as const) {
      const window = kept.take(SOURCE, after, upTo);
      expect(window).toEqual(await stored(after, upTo));
      expect(window).toHaveLength((upTo - Math.max(after, 0)) * 4);
    }
    // Block 3's first: the earlier millisecond, by tid.
    expect(kept.take(SOURCE, 2, 3)!.slice(0, 2)).toEqual([
      {
        address: A,
        coin: 'BTC',
        px: '99.8',
        sz: '1',
        side: 'A',
        time: T + 2_999,
        startPosition: '0',
        closedPnl: '0',
        fee: '0',
        tid: 34,
        hash: `0x${(34).toString(16).padStart(64, '0')}`,
        oid: 34,
      },
      {
        address: A,
        coin: 'BTC',
        px: '99.9',
        sz: '1',
        side: 'B',
        time: T + 2_999,
        startPosition: '0',
        closedPnl: '0',
        fee: '0',
        tid: 35,
        hash: `0x${(35).toString(16).padStart(64, '0')}`,
        oid: 35,
      },
    ]);
  });

  it('keeps nothing for a source the projection never asked for', async () => {
    await store(block(1));
    expect(kept.take(SOURCE, -1, 1)).toBeNull();
  });

  it('serves no window reaching past the batches it saw, or before the ones it keeps', async () => {
    kept.take(SOURCE, -1, 1);
    // Stored by another process: this one never saw block 1.
    const other = await openMarketWriteContext(dataSource);
    await other.get(ExchangeFactsWriter).writeBlocks([feedBlock('node_fills_by_block', block(1), 1)], SOURCE);
    await other.close();
    await store(block(2), block(3));
    expect(kept.take(SOURCE, 0, 3)).toBeNull();
    expect(kept.take(SOURCE, 1, 3)).toEqual(await stored(1, 3));
    expect(kept.take(SOURCE, 1, 4)).toBeNull();
    // Projected up to 3: the batch of blocks 2 and 3 is let go, so a window from before it is read from Postgres.
    expect(kept.take(SOURCE, 3, 3)).toEqual([]);
    expect(kept.take(SOURCE, 1, 3)).toBeNull();
  });

  it('starts again after a batch with a fill Postgres already held', async () => {
    kept.take(SOURCE, -1, 1);
    await store(block(1));
    // The key (tid, address, time) of block 1's first fill again.
    await store(block(2, [[B, wireFill({ coin: 'ETH', px: '31.5', sz: '2', side: 'A', time: T + 1_000, tid: 12 })]]));
    await store(block(3));
    expect(await stored(-1, 3)).toHaveLength(12);
    expect(kept.take(SOURCE, -1, 3)).toBeNull();
    expect(kept.take(SOURCE, 1, 3)).toBeNull();
    expect(kept.take(SOURCE, 2, 3)).toEqual(await stored(2, 3));
  });
});

describe('numericText', () => {
  it('prints a wire decimal as Postgres prints the numeric back', async () => {
    const wire = [
      '0',
      '-0',
      '00',
      '-00.000',
      '007.50',
      '-007.50',
      '0.001',
      '-0.001',
      '100',
      '-12.5',
      '000100.0',
      '0.0',
      '-0.0',
      '10.000000000000000001',
    ];
    const rows: Array<{ text: string }> = await dataSource.query(
      `SELECT w::numeric::text AS text FROM unnest($1::text[]) WITH ORDINALITY AS t(w, i) ORDER BY i`,
      [wire],
    );
    expect(wire.map(numericText)).toEqual(rows.map((r) => r.text));
  });
});
