import { isoTime } from '#database';
import type { NodeFillsBlock, NodeMiscEventsBlock, NodeTwapStatusesBlock } from '#exchange';

// Rows as the repositories insert them: decimals stay the exact strings received, times are ISO strings
// built from epoch ms (Date keeps milliseconds exactly; no float seconds on the way).

export interface FillRow {
  address: string;
  coin: string;
  px: string;
  sz: string;
  side: string;
  time: string;
  startPosition: string;
  dir: string;
  closedPnl: string;
  hash: string;
  oid: number;
  crossed: boolean;
  fee: string;
  feeToken: string | null;
  tid: number;
  cloid: string | null;
  twapId: number | null;
  builder: string | null;
  builderFee: string | null;
  liquidatedUser: string | null;
  liquidationMarkPx: string | null;
  liquidationMethod: string | null;
  isLiquidatedSide: boolean;
  blockNumber: number;
  blockTime: string;
}

export interface TwapStatusRow {
  blockNumber: number;
  twapId: number;
  status: string;
  description: string | null;
  coin: string;
  address: string;
  side: string;
  sz: string;
  executedSz: string;
  executedNtl: string;
  minutes: number;
  reduceOnly: boolean;
  randomize: boolean;
  timestamp: string;
  time: string;
}

export interface LedgerUpdateRow {
  hash: string;
  address: string;
  type: string;
  usdc: string | null;
  delta: unknown;
  users: string[];
  time: string;
  blockNumber: number;
}

export interface FundingPaymentRow {
  address: string;
  coin: string;
  usdc: string;
  szi: string;
  fundingRate: string;
  time: string;
  blockNumber: number;
}

export interface MarketPriceRow {
  coin: string;
  px: string;
  time: string;
  blockNumber: number;
}

const ZERO_HASH = /^0x0+$/;

export function fillRows(block: NodeFillsBlock): FillRow[] {
  const blockTime = isoTime(block.blockTimeMs);
  // The fills of a block nearly all share one time: format it once, not once per fill.
  let lastMs = block.blockTimeMs;
  let lastIso = blockTime;
  const timeOf = (ms: number): string => (ms === lastMs ? lastIso : (lastIso = isoTime((lastMs = ms))));
  return block.events.map(({ address, fill }) => ({
    address,
    coin: fill.coin,
    px: fill.px,
    sz: fill.sz,
    side: fill.side,
    time: timeOf(fill.time),
    startPosition: fill.startPosition,
    dir: fill.dir,
    closedPnl: fill.closedPnl,
    hash: fill.hash,
    oid: fill.oid,
    crossed: fill.crossed,
    fee: fill.fee,
    feeToken: fill.feeToken,
    tid: fill.tid,
    cloid: fill.cloid,
    twapId: fill.twapId,
    builder: fill.builder,
    builderFee: fill.builderFee,
    liquidatedUser: fill.liquidation?.liquidatedUser ?? null,
    liquidationMarkPx: fill.liquidation?.markPx ?? null,
    liquidationMethod: fill.liquidation?.method ?? null,
    // Both sides of a liquidation trade carry the liquidation; only the victim's side is "liquidated".
    isLiquidatedSide: fill.liquidation !== null && fill.liquidation.liquidatedUser.toLowerCase() === address.toLowerCase(),
    blockNumber: block.blockNumber,
    blockTime,
  }));
}

export function twapStatusRows(block: NodeTwapStatusesBlock): TwapStatusRow[] {
  return block.events.map((e) => ({
    blockNumber: block.blockNumber,
    twapId: e.twapId,
    status: e.status,
    description: e.description,
    coin: e.state.coin,
    address: e.state.user,
    side: e.state.side,
    sz: e.state.sz,
    executedSz: e.state.executedSz,
    executedNtl: e.state.executedNtl,
    minutes: e.state.minutes,
    reduceOnly: e.state.reduceOnly,
    randomize: e.state.randomize,
    timestamp: isoTime(e.state.timestamp),
    time: isoTime(e.timeMs),
  }));
}

/**
 * One row per affected user. An event without a transaction hash (absent or all zeros) would collide
 * with its neighbours on the key, so it is named by its place in the chain instead: block and event
 * index, which a replay of the same line reproduces.
 */
export function ledgerUpdateRows(block: NodeMiscEventsBlock): LedgerUpdateRow[] {
  const rows: LedgerUpdateRow[] = [];
  for (const e of block.events) {
    if (e.kind !== 'ledgerUpdate') continue;
    const hash = e.hash === null || ZERO_HASH.test(e.hash) ? `block:${block.blockNumber}:${e.index}` : e.hash;
    const type = e.delta.type === 'unknown' ? e.delta.wireType : e.delta.type;
    const usdc = 'usdc' in e.delta ? e.delta.usdc : null;
    for (const address of new Set(e.users)) {
      rows.push({ hash, address, type, usdc, delta: e.delta, users: e.users, time: isoTime(e.timeMs), blockNumber: block.blockNumber });
    }
  }
  return rows;
}

export function fundingPaymentRows(block: NodeMiscEventsBlock): FundingPaymentRow[] {
  const rows: FundingPaymentRow[] = [];
  for (const e of block.events) {
    if (e.kind !== 'funding') continue;
    for (const d of e.deltas) {
      rows.push({
        address: d.user,
        coin: d.coin,
        usdc: d.fundingAmount,
        szi: d.szi,
        fundingRate: d.fundingRate,
        time: isoTime(e.timeMs),
        blockNumber: block.blockNumber,
      });
    }
  }
  return rows;
}

/** The last trade price of each coin among the fills, latest by (block, fill time), ties to the later fill. */
export function lastPrices(fills: FillRow[]): MarketPriceRow[] {
  const byCoin = new Map<string, FillRow>();
  for (const f of fills) {
    const seen = byCoin.get(f.coin);
    if (!seen || f.blockNumber > seen.blockNumber || (f.blockNumber === seen.blockNumber && f.time >= seen.time)) byCoin.set(f.coin, f);
  }
  return [...byCoin.values()].map((f) => ({ coin: f.coin, px: f.px, time: f.time, blockNumber: f.blockNumber }));
}
