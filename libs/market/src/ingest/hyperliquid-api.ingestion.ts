import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  type AddressCursors,
  type AddressState,
  API_STREAMS,
  type ApiStream,
  HyperliquidApiFeed,
  type HyperliquidApiFeedOptions,
  type ParseIssue,
} from '#exchange';
import type { FeedBlock } from '../facts/exchange-facts.types.js';
import { ExchangeFactsWriter } from '../facts/exchange-facts.writer.js';
import { FeedCheckpointRepository } from '../facts/feed-checkpoint.repository.js';
import type { IngestionStep } from './node-directory.ingestion.js';

export const HYPERLIQUID_SOURCE = 'hyperliquid';

export type HyperliquidIngestionOptions = Omit<HyperliquidApiFeedOptions, 'cursors'>;

/**
 * Stores the public-API feed of the tracked addresses. The feed has no block heights, so the writer is
 * told not to skip by block number (rows' unique keys de-duplicate), and each stream's checkpoint holds
 * the per-address cursors `{lastBlock: null, cursors: {address: lastTimeMs}}`, written in the same
 * transaction as the facts: a restarted ingestion backfills from exactly what was stored.
 */
@Injectable()
export class HyperliquidApiIngestion {
  private feed?: HyperliquidApiFeed;
  /** A batch whose write failed: written again before anything newer, so nothing is lost or reordered. */
  private unwritten: FeedBlock[] | null = null;
  private unreported: ParseIssue[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: ExchangeFactsWriter,
    private readonly checkpoints: FeedCheckpointRepository,
  ) {}

  /** Opens the connections, resuming every address from its stored cursors. */
  async open(options: HyperliquidIngestionOptions): Promise<void> {
    if (this.feed) throw new Error('the hyperliquid ingestion is already open');
    const stored = await this.checkpoints.read(this.dataSource, HYPERLIQUID_SOURCE);
    const cursors: Partial<Record<ApiStream, AddressCursors>> = {};
    for (const stream of API_STREAMS) {
      const position = stored.get(stream) as { cursors?: AddressCursors } | undefined;
      if (position?.cursors) cursors[stream] = position.cursors;
    }
    this.feed = new HyperliquidApiFeed({ ...options, cursors });
    this.feed.start();
  }

  stateOf(address: string): AddressState | undefined {
    return this.feed?.stateOf(address);
  }

  /** Writes up to `maxBlocks` blocks in one transaction, waiting up to `waitMs` for some to arrive. */
  async step(maxBlocks: number, waitMs: number): Promise<IngestionStep> {
    if (!this.feed) throw new Error('the hyperliquid ingestion is not open');
    let batch = this.unwritten;
    if (!batch) {
      const next = await this.feed.next(maxBlocks, waitMs);
      batch = next.blocks;
      this.unreported.push(...next.issues);
    }
    // Issues are handed out with the step that succeeds, so a failed write does not lose them.
    const issues = () => this.unreported.splice(0);
    if (batch.length === 0) return { blocks: 0, issues: issues(), written: null };
    this.unwritten = batch;
    const written = await this.writer.writeBlocks(batch, HYPERLIQUID_SOURCE, { skipAppliedBlocks: false });
    this.unwritten = null;
    return { blocks: batch.length, issues: issues(), written };
  }

  /** Closes the connections. A step in progress still completes; blocks not yet taken are backfilled after a restart. */
  async close(): Promise<void> {
    await this.feed?.stop();
  }
}
