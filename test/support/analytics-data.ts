import type { DataSource } from 'typeorm';
import { ExchangeFactsWriter, FillProjector, MarketStateWriter } from '#market';
import {
  address,
  exchangeState,
  fed,
  feedBlock,
  fillsBlock,
  limitOrder,
  positionState,
  startedWriter,
  statusLine,
  walletState,
  wireFill,
  type WireFill,
} from '#testing';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const GRID = 5 * MIN;

export const WALLET = address(0x7001);
export const BUILDER = `0x${'d'.repeat(40)}`;
const VICTIM = address(0x7002);
const LIQUIDATOR = address(0x7003);
const OTHER = address(0x7004);

/** What the seeded data holds, for the routes' parameters. */
export interface AnalyticsData {
  /** A 5-minute snapshot of the open orders (two days ago: the routes take the last 30 days of the wall clock). */
  snapshotTime: number;
  /** Every seeded time lies in [first, last]. */
  first: number;
  last: number;
}

type LiquidationFill = WireFill & { liquidation: { liquidatedUser: string; markPx: string; method: string } };

/**
 * A little of everything the analytics routes read, written through the production writers: two blocks of
 * fills (a BTC trade of WALLET through BUILDER, a liquidation) and order statuses (an order resting across
 * a snapshot boundary), two state updates a week apart (positions, HYPE, PnL), the fill projector's run
 * (a closed trade, the builder's figures). The favourites are the caller's: they go through the api.
 */
export async function writeAnalyticsData(dataSource: DataSource): Promise<AnalyticsData> {
  const snapshotTime = Math.floor((Date.now() - 2 * DAY) / GRID) * GRID;
  const [t1, t2] = [snapshotTime - 4 * MIN, snapshotTime + MIN];
  const fill = (fields: Partial<WireFill> & Pick<WireFill, 'px' | 'side' | 'time' | 'tid'>) =>
    wireFill({ coin: 'BTC', sz: '1', builder: BUILDER, builderFee: '0.01', ...fields });
  const liquidation = { liquidatedUser: VICTIM, markPx: '105', method: 'market' };
  const fills = (blockNumber: number, time: number, events: Array<[string, WireFill]>) =>
    feedBlock('node_fills_by_block', fillsBlock(blockNumber, time, events), blockNumber);
  const order = limitOrder({ coin: 'BTC', side: 'B', limitPx: '90', sz: '1', oid: 7_777, timestamp: t1 });

  const facts = await startedWriter(dataSource, ExchangeFactsWriter);
  await facts.writeBlocks(
    [
      fed('node_order_statuses_by_block', statusLine(900_001, t1, [{ user: WALLET, status: 'open', order }])),
      fills(900_001, t1, [[WALLET, fill({ px: '100', side: 'B', time: t1, tid: 1, dir: 'Open Long' })]]),
      fed('node_order_statuses_by_block', statusLine(900_002, t2, [])),
      fills(900_002, t2, [
        [WALLET, fill({ px: '110', side: 'A', time: t2, tid: 2, startPosition: '1', dir: 'Close Long', closedPnl: '10' })],
        [VICTIM, fill({ px: '105', side: 'A', time: t2, tid: 3, startPosition: '1', dir: 'Close Long', liquidation } as LiquidationFill)],
        [LIQUIDATOR, fill({ px: '105', side: 'B', time: t2, tid: 3, dir: 'Open Long', crossed: false, liquidation } as LiquidationFill)],
      ]),
    ],
    'node',
  );

  const states = await startedWriter(dataSource, MarketStateWriter);
  const [s1, s2] = [snapshotTime - 8 * DAY, snapshotTime + 2 * MIN];
  for (const [height, time, pnl] of [
    [1, s1, '1000'],
    [2, s2, '5000'],
  ] as const) {
    await states.apply(
      exchangeState(height, time, [
        walletState(WALLET, {
          perpEquity: '250000',
          allTimePnl: pnl,
          spotHype: '10',
          stakedHype: '5',
          positions: [positionState('BTC', { liquidationPx: '80' })],
        }),
        walletState(OTHER, { positions: [positionState('ETH', { szi: '-2', liquidationPx: '130' })] }),
      ]),
    );
  }

  await (await startedWriter(dataSource, FillProjector)).project('node');
  return { snapshotTime, first: s1, last: s2 };
}

/** A value for every query and path parameter the analytics routes take, that finds the data written above. */
export async function routeSamples(dataSource: DataSource, data: AnalyticsData): Promise<Record<string, string>> {
  const iso = (ms: number) => new Date(ms).toISOString();
  const day = 86_400_000;
  const [{ cohort }]: Array<{ cohort: number }> = await dataSource.query(
    `SELECT size_cohort_id AS cohort FROM wallets WHERE address = $1`,
    [WALLET],
  );
  return {
    coin: 'BTC',
    segmentId: String(cohort),
    segment: String(cohort),
    segmentIds: String(cohort),
    snapshotTime: iso(data.snapshotTime),
    timeframe: '7d',
    builder: BUILDER,
    address: WALLET,
    start: iso(data.first - 60_000),
    end: iso(data.last + 60_000),
    startTime: iso(data.snapshotTime - 5 * day),
    endTime: iso(data.snapshotTime + day),
    hasOpenPositions: 'true',
    open: 'true',
    positionRecencyTimeframe: '7d',
    positionAge: '7d',
    openedWithin: '7d',
    interval: 'last50',
  };
}
