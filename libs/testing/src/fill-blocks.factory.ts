import type { DataSource } from 'typeorm';
import { type NodeBlock, nodeTime } from '#exchange';
import type { FeedBlock } from '#market';
import { dumpTables, feedBlock, parseLine, type TestPosition } from './fact-blocks.factory.js';

// hl-node fill and funding lines built by hand, parsed by the real parser.

export const address = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;

export interface WireFill {
  coin: string;
  px: string;
  sz: string;
  side: 'A' | 'B';
  time: number;
  startPosition: string;
  dir: string;
  closedPnl: string;
  hash: string;
  oid: number;
  crossed: boolean;
  fee: string;
  tid: number;
  feeToken?: string;
  builder?: string;
  builderFee?: string;
}

/** A wire fill with neutral defaults for what a test does not care about. */
export function wireFill(fill: Partial<WireFill> & Pick<WireFill, 'coin' | 'px' | 'sz' | 'side' | 'time' | 'tid'>): WireFill {
  return {
    startPosition: '0',
    dir: fill.side === 'B' ? 'Open Long' : 'Open Short',
    closedPnl: '0',
    hash: `0x${fill.tid.toString(16).padStart(64, '0')}`,
    oid: fill.tid,
    crossed: true,
    fee: '0',
    feeToken: 'USDC',
    ...fill,
  };
}

export function fillsBlock(blockNumber: number, timeMs: number, events: Array<[string, WireFill]>): NodeBlock {
  const time = nodeTime(timeMs, 0);
  return parseLine('node_fills_by_block', JSON.stringify({ local_time: time, block_time: time, block_number: blockNumber, events }));
}

export interface WireFunding {
  user: string;
  coin: string;
  usdc: string;
  szi: string;
}

export function fundingBlock(blockNumber: number, timeMs: number, deltas: WireFunding[]): NodeBlock {
  const time = nodeTime(timeMs, 0);
  const event = {
    time,
    hash: `0x${blockNumber.toString(16).padStart(64, '0')}`,
    inner: {
      Funding: {
        deltas: deltas.map((d) => ({ user: d.user, coin: d.coin, funding_amount: d.usdc, szi: d.szi, funding_rate: '0.0000125' })),
      },
    },
  };
  return parseLine(
    'misc_events_by_block',
    JSON.stringify({ local_time: time, block_time: time, block_number: blockNumber, events: [event] }),
  );
}

export function feed(blocks: NodeBlock[]): FeedBlock<TestPosition>[] {
  return blocks.map((block, i) => feedBlock(block.stream, block, i + 1));
}

/** Every table the fill projector writes. */
export const PROJECTION_TABLES: Record<string, string> = {
  closed_trades: 'hash',
  closed_trade_open_states: 'address, coin',
  projection_checkpoints: 'name',
  builder_activity_hourly: 'builder, hour, address, coin',
  builder_totals: 'builder',
  exchange_volume_hourly: 'hour, coin',
};

/** The projector's tables as text, without the checkpoint's write time. */
export async function dumpProjections(dataSource: DataSource): Promise<Record<string, unknown[]>> {
  const dump = await dumpTables(dataSource, PROJECTION_TABLES);
  const checkpoints: Array<{ row: string }> = await dataSource.query(
    `SELECT (name, position)::text AS row FROM projection_checkpoints ORDER BY name`,
  );
  return { ...dump, projection_checkpoints: checkpoints.map((r) => r.row) };
}
