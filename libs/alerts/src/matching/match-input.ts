import type { Fill, LedgerDelta, NodeBlock, NodeTwapStatusEvent } from '#exchange';

export interface PricePoint {
  px: string;
  timeMs: number;
}

/** One fill as the matcher reads it: the wire fill, its wallet (lower-case) and its block. */
export interface FillOccurrence {
  address: string;
  fill: Fill;
}

/** The fills of one block: grouping never crosses a block, so deliveries do not depend on batch boundaries. */
export interface FillsBlockOccurrence {
  blockNumber: number;
  blockTime: string;
  localTime: string;
  fills: FillOccurrence[];
}

/** A market's last trade price in a block, with the tick before it (null: none known). */
export interface PriceTick {
  market: string;
  px: string;
  timeMs: number;
  blockNumber: number;
  previous: PricePoint | null;
}

export interface TwapStatusOccurrence {
  blockNumber: number;
  event: NodeTwapStatusEvent;
}

/** A deposit or withdrawal: `name` is the event's hash, or `block:<n>:<index>` when it has none. */
export interface LedgerOccurrence {
  name: string;
  type: 'deposit' | 'withdraw';
  amount: string;
  users: string[];
  timeMs: number;
  blockNumber: number;
  /** The event's place in its block. */
  index: number;
}

export interface MatchInput {
  fillBlocks: FillsBlockOccurrence[];
  ticks: PriceTick[];
  twapStatuses: TwapStatusOccurrence[];
  ledger: LedgerOccurrence[];
}

const ZERO_HASH = /^0x0+$/;

/** Spot markets (`@107`, `PURR/USDC`) are not perpetual: no alerts, no price ticks. HIP-3 `dex:COIN` are perpetual. */
export const isSpotCoin = (coin: string): boolean => coin.startsWith('@') || coin.includes('/');

/**
 * The occurrences of a batch's blocks (in feed order). `previousPrices` are the markets' last prices
 * stored before the batch: the first tick of a market in the batch is compared with them.
 */
export function matchInputFromBlocks(blocks: readonly NodeBlock[], previousPrices: ReadonlyMap<string, PricePoint>): MatchInput {
  const input: MatchInput = { fillBlocks: [], ticks: [], twapStatuses: [], ledger: [] };
  const lastTick = new Map<string, PricePoint>(previousPrices);
  for (const block of blocks) {
    if (block.stream === 'node_fills_by_block') {
      const fills: FillOccurrence[] = [];
      // Each market's last fill in the block is its tick.
      const lastFills = new Map<string, Fill>();
      for (const e of block.events) {
        fills.push({ address: e.address.toLowerCase(), fill: e.fill });
        lastFills.set(e.fill.coin, e.fill);
      }
      input.fillBlocks.push({ blockNumber: block.blockNumber, blockTime: block.blockTime, localTime: block.localTime, fills });
      for (const [market, fill] of lastFills) {
        if (isSpotCoin(market)) continue;
        const point = { px: fill.px, timeMs: fill.time };
        input.ticks.push({
          market,
          px: point.px,
          timeMs: point.timeMs,
          blockNumber: block.blockNumber,
          previous: lastTick.get(market) ?? null,
        });
        lastTick.set(market, point);
      }
    } else if (block.stream === 'node_twap_statuses_by_block') {
      for (const event of block.events) input.twapStatuses.push({ blockNumber: block.blockNumber, event });
    } else if (block.stream === 'misc_events_by_block') {
      for (const e of block.events) {
        if (e.kind !== 'ledgerUpdate') continue;
        const movement = depositOrWithdrawal(e.delta);
        if (!movement) continue;
        const name = e.hash === null || ZERO_HASH.test(e.hash) ? `block:${block.blockNumber}:${e.index}` : e.hash;
        input.ledger.push({ name, ...movement, users: e.users, timeMs: e.timeMs, blockNumber: block.blockNumber, index: e.index });
      }
    }
  }
  return input;
}

function depositOrWithdrawal(delta: LedgerDelta): { type: 'deposit' | 'withdraw'; amount: string } | null {
  if (delta.type === 'deposit' || delta.type === 'withdraw') return { type: delta.type, amount: delta.usdc };
  return null;
}
