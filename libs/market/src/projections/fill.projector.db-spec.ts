import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import {
  address,
  dumpProjections,
  feed,
  fillsBlock,
  fixtureJson,
  fundingBlock,
  openFactsDatabase,
  resetDatabase,
  startedWriter,
  useTestEnvironment,
  wireFill,
  type WireFill,
} from '#testing';
import type { NodeBlock, NodeFillsBlock } from '#exchange';
import { buildClosedTrades, ClosedTradeBuilder } from '../closed-trades/closed-trade.builder.js';
import { netResult, tradeOutcome } from '../closed-trades/closed-trades.summary.js';
import type { ClosedTrade, OpenTradeState } from '../closed-trades/closed-trade.types.js';
import { ClosedTradesQueries } from '../read/closed-trades/closed-trades.queries.js';
import { ExchangeFactsWriter } from '../facts/exchange-facts.writer.js';
import { FillProjector, type FillProjectionResult } from './fill.projector.js';

/** A built trade as the list reads it back: the net result and outcome come from Postgres's OUTCOME_SQL, checked here against the pure rule. */
const listed = (t: ClosedTrade) => ({ ...t, netPnlUsd: netResult(t).toFixed(), outcome: tradeOutcome(t) });

const config = useTestEnvironment();
let dataSource: DataSource;
let writer: ExchangeFactsWriter;
const repository = new ClosedTradesQueries();

beforeAll(async () => {
  ({ dataSource, writer } = await openFactsDatabase(config.DATABASE_URL));
});

afterAll(async () => {
  await dataSource?.destroy();
});

/** Runs until the projector has caught up with the stored feed; returns the summed counts. */
async function drain(projector: FillProjector, maxFills?: number): Promise<FillProjectionResult[]> {
  const runs: FillProjectionResult[] = [];
  do runs.push(await projector.project('node', maxFills));
  while (runs[runs.length - 1]!.more);
  return runs;
}

const sum = (runs: FillProjectionResult[], key: 'fills' | 'closedTrades' | 'fundingPayments' | 'lateFundingPayments'): number =>
  runs.reduce((n, r) => n + r[key], 0);

/** Newest first, as the repository pages them. */
const newestFirst = (a: ClosedTrade, b: ClosedTrade): number =>
  b.closeTime - a.closeTime || (a.hash < b.hash ? 1 : a.hash > b.hash ? -1 : 0);

async function storedTrades(wallet: string, pageSize = 1000): Promise<ClosedTrade[]> {
  const trades: ClosedTrade[] = [];
  let after = null;
  do {
    const page = await repository.listByAddress(dataSource, { address: wallet, limit: pageSize, after });
    trades.push(...page.trades);
    after = page.next;
  } while (after);
  return trades;
}

async function storedOpenStates(): Promise<OpenTradeState[]> {
  const rows: Array<{ state: OpenTradeState }> = await dataSource.query(
    `SELECT state FROM closed_trade_open_states ORDER BY address, coin`,
  );
  return rows.map((r) => r.state);
}

describe('FillProjector on info_userFills.json (500 fills of one wallet) as hl-node blocks', () => {
  const WALLET = address(0xabc1);
  // Oldest first and stable, so fills of one millisecond keep the file's execution order; a tid in that
  // order, one block per millisecond. The file predates trade ids and has 83 self-trades whose legs would
  // share a tid on hl-node: (tid, address) keeps one fill, so here every fill has its own tid, and the
  // builder (which pairs self-trade legs by tid) sees those legs as gaps. The reference is the pure
  // builder over exactly these fills.
  const raw = (fixtureJson('info_userFills.json') as WireFill[]).slice().sort((a, b) => a.time - b.time);
  const byTime = new Map<number, Array<[string, WireFill]>>();
  raw.forEach((fill, i) =>
    byTime.set(fill.time, [...(byTime.get(fill.time) ?? []), [WALLET, { ...fill, tid: 7_000_000 + i, feeToken: 'USDC' }]]),
  );
  const blocks = [...byTime].map(([time, events], i) => fillsBlock(1_000 + i, time, events) as NodeFillsBlock);
  const fills = blocks.flatMap((b) => b.events.map((e) => e.fill));
  const expected = buildClosedTrades(WALLET, fills).sort(newestFirst).map(listed);

  it('stores exactly the pure builder trades, over batches, small windows and a restart', async () => {
    expect(fills).toHaveLength(500);
    expect(expected).toHaveLength(204);
    expect(expected.reduce((s, t) => s.plus(t.realizedPnlUsd), new Big(0)).toFixed()).toBe('-152.586132');

    let projector = await startedWriter(dataSource, FillProjector);
    const runs: FillProjectionResult[] = [];
    const quarter = Math.ceil(blocks.length / 4);
    for (let i = 0; i < 4; i++) {
      await writer.writeBlocks(feed(blocks.slice(i * quarter, (i + 1) * quarter)), 'node');
      if (i === 2) projector = await startedWriter(dataSource, FillProjector); // a restart: nothing kept in memory
      runs.push(...(await drain(projector, 37)));
    }
    // Windows stop at the block of their 37th fill, so a run that left fills waiting took at least 37.
    const capped = runs.filter((r) => r.more);
    expect(capped.length).toBeGreaterThanOrEqual(8);
    expect(capped.every((r) => r.fills >= 37)).toBe(true);
    expect(sum(runs, 'fills')).toBe(500);
    expect(sum(runs, 'closedTrades')).toBe(204);
    expect(runs.every((r) => r.outOfOrderFills === 0)).toBe(true);

    expect(await storedTrades(WALLET)).toEqual(expected);
    // Keyset pages of 25 give the same sequence.
    expect(await storedTrades(WALLET, 25)).toEqual(expected);

    const pure = new ClosedTradeBuilder();
    for (const fill of [...fills].sort((a, b) => a.time - b.time || a.tid - b.tid)) pure.add(WALLET, fill);
    expect(await storedOpenStates()).toEqual(pure.openTrades().sort((a, b) => (a.coin < b.coin ? -1 : 1)));
  });

  it('changes nothing when run again or when the feed stores the same blocks again', async () => {
    const before = await dumpProjections(dataSource);
    expect(await (await startedWriter(dataSource, FillProjector)).project('node')).toMatchObject({
      fills: 0,
      closedTrades: 0,
      more: false,
    });
    expect((await writer.writeBlocks(feed(blocks), 'node')).skippedBlocks).toBe(blocks.length);
    await drain(await startedWriter(dataSource, FillProjector));
    expect(await dumpProjections(dataSource)).toEqual(before);
  });

  it('pages one wallet by close time, newest first, within inclusive bounds', async () => {
    const start = expected[150]!.closeTime;
    const end = expected[20]!.closeTime;
    const inRange = expected.filter((t) => t.closeTime >= start && t.closeTime <= end);
    const first = await repository.listByAddress(dataSource, {
      address: WALLET.toUpperCase().replace('0X', '0x'),
      startTime: start,
      endTime: end,
      limit: 100,
    });
    expect(first.trades).toEqual(inRange.slice(0, 100));
    const second = await repository.listByAddress(dataSource, {
      address: WALLET,
      startTime: start,
      endTime: end,
      limit: 100,
      after: first.next,
    });
    expect([...first.trades, ...second.trades]).toEqual(inRange);
    expect(second.next).toBeNull();
  });
});

describe('FillProjector on a flip with funding', () => {
  const W = address(0xf11b);
  const MAKER = address(0x3a3e);
  const T0 = Date.UTC(2026, 5, 28, 8, 0, 0, 250);
  const HOUR = 3_600_000;
  /** W's fill and its maker's, whose position mirrors W's. */
  const pair = (
    tid: number,
    time: number,
    side: 'A' | 'B',
    px: string,
    sz: string,
    start: string,
    extra: Partial<WireFill> = {},
  ): Array<[string, WireFill]> => [
    [W, wireFill({ coin: 'BTC', tid, time, side, px, sz, startPosition: start, ...extra })],
    [
      MAKER,
      wireFill({
        coin: 'BTC',
        tid,
        time,
        side: side === 'B' ? 'A' : 'B',
        px,
        sz,
        startPosition: new Big(start).neg().toFixed(),
        crossed: false,
      }),
    ],
  ];

  // Long 2 @ 100; funding -0.5 on it; "Long > Short" 3 @ 110 closes the long (closedPnl 20) and opens a
  // short of 1; funding +0.1 on the short; bought back 1 @ 105 (closedPnl 5). Then a long of 1 opened
  // at 100, funding -0.2 on it, closed at 101.
  const FILLS: NodeBlock[] = [
    fillsBlock(10, T0, pair(1, T0, 'B', '100', '2', '0', { fee: '0.02' })),
    fillsBlock(
      12,
      T0 + HOUR + 1_000,
      pair(2, T0 + HOUR + 1_000, 'A', '110', '3', '2', { closedPnl: '20', fee: '0.03', dir: 'Long > Short' }),
    ),
    fillsBlock(
      14,
      T0 + 2 * HOUR + 5_000,
      pair(3, T0 + 2 * HOUR + 5_000, 'B', '105', '1', '-1', { closedPnl: '5', fee: '0.01', dir: 'Close Short' }),
    ),
    fillsBlock(16, T0 + 3 * HOUR - 60_000, pair(4, T0 + 3 * HOUR - 60_000, 'B', '100', '1', '0')),
    fillsBlock(18, T0 + 3 * HOUR + 60_000, [
      [MAKER, wireFill({ coin: 'ETH', tid: 5, time: T0 + 3 * HOUR + 60_000, side: 'B', px: '3000', sz: '1' })],
    ]),
    fillsBlock(20, T0 + 4 * HOUR - 1, pair(6, T0 + 4 * HOUR - 1, 'A', '101', '1', '1', { closedPnl: '1', dir: 'Close Long' })),
  ];
  const FUNDING: NodeBlock[] = [
    fundingBlock(11, T0 + HOUR, [{ user: W, coin: 'BTC', usdc: '-0.5', szi: '2' }]),
    fundingBlock(13, T0 + 2 * HOUR, [{ user: W, coin: 'BTC', usdc: '0.1', szi: '-1' }]),
    fundingBlock(17, T0 + 3 * HOUR, [{ user: W, coin: 'BTC', usdc: '-0.2', szi: '1' }]),
  ];
  const byBlock = (a: NodeBlock, b: NodeBlock): number => a.blockNumber - b.blockNumber;

  const EXPECTED = [
    {
      side: 'long',
      coin: 'BTC',
      openTime: T0,
      closeTime: T0 + HOUR + 1_000,
      duration: HOUR + 1_000,
      partial: false,
      avgEntry: '100',
      avgExit: '110',
      totalSize: '2',
      totalUsd: '200',
      exitSize: '2',
      exitUsd: '220',
      realizedPnlUsd: '20',
      countFills: 2,
      fee: '0.04',
      feeUsd: '0.04',
      fundingUsd: '-0.5',
      carriedSize: '0', // 0.02 + 0.03 * 2/3
    },
    {
      side: 'short',
      coin: 'BTC',
      openTime: T0 + HOUR + 1_000,
      closeTime: T0 + 2 * HOUR + 5_000,
      duration: HOUR + 4_000,
      partial: false,
      avgEntry: '110',
      avgExit: '105',
      totalSize: '1',
      totalUsd: '110',
      exitSize: '1',
      exitUsd: '105',
      realizedPnlUsd: '5',
      countFills: 2,
      fee: '0.02',
      feeUsd: '0.02',
      fundingUsd: '0.1',
      carriedSize: '0', // 0.03 / 3 + 0.01
    },
    {
      side: 'long',
      coin: 'BTC',
      openTime: T0 + 3 * HOUR - 60_000,
      closeTime: T0 + 4 * HOUR - 1,
      partial: false,
      avgEntry: '100',
      avgExit: '101',
      totalSize: '1',
      realizedPnlUsd: '1',
      countFills: 2,
      fee: '0',
      fundingUsd: '-0.2',
    },
  ];

  it('stores a long-to-short flip as two trades, with the funding paid on each', async () => {
    await resetDatabase(config.DATABASE_URL);
    await writer.writeBlocks(feed([...FILLS, ...FUNDING].sort(byBlock)), 'node');
    // Two projectors at once (two ingestors): the checkpoint lock gives each window to one of them.
    const runs = (
      await Promise.all([
        drain(await startedWriter(dataSource, FillProjector), 3),
        drain(await startedWriter(dataSource, FillProjector), 3),
      ])
    ).flat();
    expect(sum(runs, 'fills')).toBe(11);
    expect(sum(runs, 'fundingPayments')).toBe(3);
    expect(sum(runs, 'lateFundingPayments')).toBe(0);
    const trades = (await storedTrades(W)).reverse();
    expect(trades).toEqual(EXPECTED.map((e) => expect.objectContaining({ ...e, address: W })));
    // The maker's mirror image: short 2, long 1 (opened by the flip), short 1; its ETH buy is still open.
    expect((await storedTrades(MAKER)).reverse().map((t) => [t.side, t.totalSize, t.realizedPnlUsd])).toEqual([
      ['short', '2', '0'],
      ['long', '1', '0'],
      ['short', '1', '0'],
    ]);
    expect(await storedOpenStates()).toEqual([expect.objectContaining({ address: MAKER, coin: 'ETH', position: '1' })]);
  });

  it('gives the same trades when the funding stream is stored after the fills around it were projected', async () => {
    await resetDatabase(config.DATABASE_URL);
    const projector = await startedWriter(dataSource, FillProjector);
    await writer.writeBlocks(feed(FILLS.filter((b) => b.blockNumber <= 14)), 'node');
    await drain(projector);
    await writer.writeBlocks(
      feed([...FUNDING.filter((b) => b.blockNumber <= 13), ...FILLS.filter((b) => b.blockNumber > 14 && b.blockNumber < 20)]),
      'node',
    );
    // Payments of blocks 11 and 13 arrive below the projected block 14: the two closed trades get them.
    let runs = await drain(projector);
    expect(sum(runs, 'lateFundingPayments')).toBe(2);
    // Block 17's payment arrives once block 18 is projected: the long opened at block 16 is still open.
    await writer.writeBlocks(feed(FUNDING.filter((b) => b.blockNumber === 17)), 'node');
    runs = await drain(projector);
    expect(sum(runs, 'lateFundingPayments')).toBe(1);
    expect(await storedOpenStates()).toContainEqual(expect.objectContaining({ address: W, coin: 'BTC', funding: '-0.2' }));
    await writer.writeBlocks(feed(FILLS.filter((b) => b.blockNumber === 20)), 'node');
    await drain(projector);
    expect((await storedTrades(W)).reverse()).toEqual(EXPECTED.map((e) => expect.objectContaining({ ...e, address: W })));
  });
});

describe('FillProjector on a feed without block numbers', () => {
  it('projects nothing and says why', async () => {
    await resetDatabase(config.DATABASE_URL);
    const W = address(0xa91);
    const T = Date.UTC(2026, 5, 28, 10);
    const block = fillsBlock(T, T, [[W, wireFill({ coin: 'ETH', tid: 1, time: T, side: 'B', px: '3000', sz: '1' })]]);
    await writer.writeBlocks([{ stream: 'node_fills_by_block', block, position: { lastBlock: null } }], 'hyperliquid', {
      skipAppliedBlocks: false,
    });
    expect(await (await startedWriter(dataSource, FillProjector)).project('hyperliquid')).toMatchObject({
      fills: 0,
      blockless: true,
      more: false,
    });
    expect(await (await startedWriter(dataSource, FillProjector)).project('node')).toMatchObject({ fills: 0, blockless: false });
  });
});
