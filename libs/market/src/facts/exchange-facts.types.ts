import type { NodeBlock, NodeStream } from '#exchange';
import type { FillRow } from './fact-rows.js';
import type { StoredPrice } from './market-prices.repository.js';

/**
 * Where a feed stream stands, stored as JSON with the facts. Only `lastBlock` is read here (the
 * highest block already applied); the rest (file, offset, line for hl-node) belongs to the feed.
 * `NodeStreamCheckpoint` is one.
 */
export interface FeedPosition {
  lastBlock: number | null;
}

/** One parsed block of a stream with the position to store once its facts are written. */
export interface FeedBlock<P extends FeedPosition = FeedPosition> {
  stream: NodeStream;
  block: NodeBlock;
  position: P;
}

export interface WriteBlocksOptions {
  /** Skip blocks at or below the stream's stored `lastBlock` (default true: hl-node and simulator). */
  skipAppliedBlocks?: boolean;
}

/** Rows actually inserted by one `writeBlocks` (a replayed block adds none). */
export interface WriteBlocksResult {
  /** Blocks whose stream checkpoint was already at or past them: none of their facts were looked at. */
  skippedBlocks: number;
  fills: number;
  twapStatuses: number;
  ledgerUpdates: number;
  fundingPayments: number;
}

/**
 * A market's mid that moved between two reads of a feed's prices (the public API's `allMids`, read apart
 * from its fills): a price tick without a block.
 */
export interface MidPriceTick {
  coin: string;
  px: string;
  /** When the mids were read. */
  timeMs: number;
  /** The mid of the read before. */
  previous: { px: string; timeMs: number };
}

/**
 * What the registered steps and after-commit hooks of ExchangeFactsWriter see of one batch: the blocks
 * it accepted (in feed order; blocks already applied are left out) and their fill rows, or a feed's mid
 * ticks (`writeMidTicks`: no blocks).
 */
export interface FactsBatch {
  source: string;
  blocks: NodeBlock[];
  fills: FillRow[];
  /** The fills stream's `lastBlock` stored before this batch (null: none yet); its fills blocks all follow it. */
  fillsAfterBlock: number | null;
  /** The last price of each coin traded in the batch as stored before it (absent: never traded before). */
  previousPrices: ReadonlyMap<string, StoredPrice>;
  /** The mids that moved since the feed's previous read of them; none in a batch of blocks. */
  midTicks: MidPriceTick[];
  result: WriteBlocksResult;
}
