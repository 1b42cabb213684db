import { afterAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeDirectoryFeed, parseBlockLine, type NodeFillEvent } from '#exchange';
import { decimal, nodeFillsLines, writeNodeFillsDirectory, type NodeFillsSettings } from './node-fills.generator.js';

// Ten seconds before an hour ends, so a small run already spans two hourly files.
const SETTINGS: NodeFillsSettings = { fills: 4_000, seed: 3, startTimeMs: Date.UTC(2026, 5, 30, 23, 59, 50), wallets: 300 };

/** Every generated line through the real parser; any issue fails. */
function parsedFills(settings: NodeFillsSettings): Array<NodeFillEvent & { blockNumber: number }> {
  const fills: Array<NodeFillEvent & { blockNumber: number }> = [];
  for (const { line } of nodeFillsLines(settings)) {
    const parsed = parseBlockLine('node_fills_by_block', line, {});
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(parsed.issues).toEqual([]);
    for (const event of parsed.value.events) fills.push({ ...event, blockNumber: parsed.value.blockNumber });
  }
  return fills;
}

describe('node_fills_by_block generator', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('writes decimals the way hl-node does', () => {
    expect(decimal(97_000, 0)).toBe('97000.0');
    expect(decimal(72_153, 3)).toBe('72.153');
    expect(decimal(40_673, 6)).toBe('0.040673');
    expect(decimal(-1_255, 6)).toBe('-0.001255');
    expect(decimal(-16_260, 2)).toBe('-162.6');
    expect(decimal(0, 6)).toBe('0.0');
    expect(decimal(5, 1)).toBe('0.5');
  });

  it('makes lines the real parser accepts whole: trades as two fills sharing a tid, one per side', () => {
    const fills = parsedFills(SETTINGS);
    expect(fills).toHaveLength(4_000);
    const byTid = new Map<number, typeof fills>();
    for (const f of fills) {
      const pair = byTid.get(f.fill.tid);
      if (pair) pair.push(f);
      else byTid.set(f.fill.tid, [f]);
    }
    expect(byTid.size).toBe(2_000);
    for (const [, pair] of byTid) {
      expect(pair).toHaveLength(2);
      const [taker, maker] = [pair[0]!, pair[1]!];
      expect([taker.fill.crossed, maker.fill.crossed]).toEqual([true, false]);
      expect(new Set([taker.fill.side, maker.fill.side])).toEqual(new Set(['A', 'B']));
      expect(taker.address).not.toBe(maker.address);
      expect({
        ...maker.fill,
        side: '',
        oid: 0,
        crossed: false,
        fee: '',
        cloid: null,
        startPosition: '',
        dir: '',
        closedPnl: '',
        twapId: null,
        builder: null,
        builderFee: null,
      }).toEqual({
        ...taker.fill,
        side: '',
        oid: 0,
        crossed: false,
        fee: '',
        cloid: null,
        startPosition: '',
        dir: '',
        closedPnl: '',
        twapId: null,
        builder: null,
        builderFee: null,
      });
      expect(maker.fill.builder).toBeNull();
      expect(maker.fill.twapId).toBeNull();
      if (taker.fill.liquidation !== null) expect(taker.fill.liquidation.liquidatedUser).toBe(taker.address);
      if (taker.fill.twapId !== null) expect(taker.fill.hash).toBe(`0x${'0'.repeat(64)}`);
      if (taker.fill.builderFee !== null) expect(new Big(taker.fill.fee).gte(taker.fill.builderFee)).toBe(true);
    }
    const count = (test: (f: NodeFillEvent) => boolean) => fills.filter(test).length;
    expect(count((f) => f.fill.liquidation !== null)).toBeGreaterThan(0);
    expect(count((f) => f.fill.builder !== null)).toBeGreaterThan(0);
    expect(count((f) => f.fill.twapId !== null)).toBeGreaterThan(0);
    expect(new Set(fills.map((f) => f.fill.coin)).size).toBeGreaterThan(40);
    expect(new Set(fills.map((f) => f.address)).size).toBeGreaterThan(150);
  });

  it('keeps positions consistent: each fill starts where the wallet and coin last ended, and its dir says so', () => {
    const ends = new Map<string, Big>();
    for (const { address, fill } of parsedFills(SETTINGS)) {
      const key = `${address} ${fill.coin}`;
      const start = new Big(fill.startPosition);
      expect(start.eq(ends.get(key) ?? 0)).toBe(true);
      const end = fill.side === 'B' ? start.plus(fill.sz) : start.minus(fill.sz);
      ends.set(key, end);
      const expected =
        start.eq(0) || start.gt(0) === (fill.side === 'B')
          ? fill.side === 'B'
            ? 'Open Long'
            : 'Open Short'
          : end.eq(0) || end.gt(0) === start.gt(0)
            ? start.gt(0)
              ? 'Close Long'
              : 'Close Short'
            : start.gt(0)
              ? 'Long > Short'
              : 'Short > Long';
      expect(fill.dir).toBe(expected);
      if (fill.dir.startsWith('Open')) expect(fill.closedPnl).toBe('0.0');
    }
  });

  it('writes hourly files the hl-node directory feed reads back, block for block', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tidewatch-fills-gen-'));
    dirs.push(dir);
    const written = writeNodeFillsDirectory(dir, SETTINGS, () => {});
    expect(written).toMatchObject({ fills: 4_000, files: 2 });
    const feed = new NodeDirectoryFeed(dir);
    let blocks = 0;
    let fills = 0;
    let lastFile: string | undefined;
    for (;;) {
      const poll = await feed.poll(100);
      expect(poll.issues).toEqual([]);
      if (poll.blocks.length === 0) break;
      lastFile = poll.checkpoints.node_fills_by_block?.file;
      blocks += poll.blocks.length;
      for (const { block } of poll.blocks) fills += block.events.length;
    }
    expect({ blocks, fills }).toEqual({ blocks: written.blocks, fills: 4_000 });
    expect(lastFile).toBe('20260701/0');
  });
});
