import { DataSource } from 'typeorm';
import { type NodeStream, nodeTime, type WireOrder } from '#exchange';
import { OrderSnapshotsQueries, type FeedBlock, type OpenOrderRecord } from '#market';
import { dumpTables, feedBlock, parseLine, type TestPosition } from './fact-blocks.factory.js';

// hl-node order-status and fill lines built as the node writes them, read back by the real parser.

/** A plain resting limit order placed at `timestamp`, with the given fields changed. */
export function limitOrder(
  fields: Partial<WireOrder> & Pick<WireOrder, 'coin' | 'side' | 'limitPx' | 'sz' | 'oid' | 'timestamp'>,
): WireOrder {
  return {
    triggerCondition: 'N/A',
    isTrigger: false,
    triggerPx: '0.0',
    children: [],
    isPositionTpsl: false,
    reduceOnly: false,
    orderType: 'Limit',
    origSz: fields.sz,
    tif: 'Gtc',
    cloid: null,
    ...fields,
  };
}

export interface StatusEvent {
  user: string;
  status: string;
  order: WireOrder;
  builder?: { b: string; f: number } | null;
}

export function statusLine(blockNumber: number, timeMs: number, events: StatusEvent[]): string {
  return JSON.stringify({
    local_time: nodeTime(timeMs + 150, 0),
    block_time: nodeTime(timeMs, 0),
    block_number: blockNumber,
    events: events.map((e) => ({
      time: nodeTime(timeMs, 0),
      user: e.user,
      hash: null,
      builder: e.builder ?? null,
      status: e.status,
      order: e.order,
    })),
  });
}

export interface FillEvent {
  user: string;
  oid: number;
  sz: string;
  tid: number;
  coin?: string;
  side?: 'A' | 'B';
}

export function fillLine(blockNumber: number, timeMs: number, fills: FillEvent[]): string {
  return JSON.stringify({
    local_time: nodeTime(timeMs + 150, 0),
    block_time: nodeTime(timeMs, 0),
    block_number: blockNumber,
    events: fills.map((f) => [
      f.user,
      {
        coin: f.coin ?? 'BTC',
        px: '60000.0',
        sz: f.sz,
        side: f.side ?? 'B',
        time: timeMs,
        startPosition: '0.0',
        dir: 'Open Long',
        closedPnl: '0.0',
        hash: `0x${f.tid.toString(16).padStart(64, '0')}`,
        oid: f.oid,
        crossed: false,
        fee: '0.0',
        tid: f.tid,
        feeToken: 'USDC',
        twapId: null,
      },
    ]),
  });
}

/** A line as the feed hands it to the writer (position: the block number as the line). */
export function fed(stream: NodeStream, line: string): FeedBlock<TestPosition> {
  const block = parseLine(stream, line);
  return feedBlock(stream, block, block.blockNumber);
}

export const ORDER_TABLES: Record<string, string> = {
  open_orders: 'address, oid',
  open_order_intervals: 'address, oid, valid_from',
  open_order_snapshots: 'snapshot_ts',
  open_order_feeds: 'source',
  open_order_backlog: 'source, block_number, stream',
};

export const dumpOrderTables = (dataSource: DataSource) => dumpTables(dataSource, ORDER_TABLES);

/** Every order of a snapshot, read page by page. */
export async function allOpenAt(dataSource: DataSource, snapshotTs: string | number, pageSize = 1000): Promise<OpenOrderRecord[] | null> {
  const repository = new OrderSnapshotsQueries();
  const orders: OpenOrderRecord[] = [];
  let page = await repository.openAt(dataSource, snapshotTs, {}, pageSize, null);
  if (page === null) return null;
  for (;;) {
    orders.push(...page.orders);
    if (page.nextCursor === null) return orders;
    page = (await repository.openAt(dataSource, snapshotTs, {}, pageSize, page.nextCursor))!;
  }
}
