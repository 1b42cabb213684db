import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NodeDirectoryFeed, type NodeFeedCheckpoints, type ParseIssue } from '../../../exchange/src/index.js';
import type { WriteBlocksResult } from '../facts/exchange-facts.types.js';
import { ExchangeFactsWriter } from '../facts/exchange-facts.writer.js';
import { FeedCheckpointRepository } from '../facts/feed-checkpoint.repository.js';

export const NODE_SOURCE = 'node';

export interface IngestionStep {
  blocks: number;
  issues: ParseIssue[];
  written: WriteBlocksResult | null;
}

/**
 * Reads an hl-node data directory into Postgres. The feed starts from the checkpoints stored with the
 * facts, and every batch's checkpoints are written in the same transaction as its facts, so a process
 * killed at any point resumes exactly where its last committed batch ended.
 */
@Injectable()
export class NodeDirectoryIngestion {
  private readonly checkpoints = new FeedCheckpointRepository();
  private feed?: NodeDirectoryFeed;

  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: ExchangeFactsWriter,
  ) {}

  /**
   * One pass: up to `maxBlocksPerStream` new blocks of each stream, written in one transaction.
   * `source` names the checkpoints: `node` for a real node, `simulator` for the simulator's directory.
   */
  async step(dataDir: string, maxBlocksPerStream: number, source = NODE_SOURCE): Promise<IngestionStep> {
    this.feed ??= await this.open(dataDir, source);
    const poll = await this.feed.poll(maxBlocksPerStream);
    if (poll.blocks.length === 0) return { blocks: 0, issues: poll.issues, written: null };
    try {
      const batch = poll.blocks.map(({ block, position }) => ({ stream: block.stream, block, position }));
      return { blocks: batch.length, issues: poll.issues, written: await this.writer.writeBlocks(batch, source) };
    } catch (error) {
      // The readers have moved past blocks that were not stored: start again from what was.
      this.feed = undefined;
      throw error;
    }
  }

  private async open(dataDir: string, source: string): Promise<NodeDirectoryFeed> {
    const stored = await this.checkpoints.read(this.dataSource, source);
    return new NodeDirectoryFeed(dataDir, Object.fromEntries(stored) as Partial<NodeFeedCheckpoints>);
  }
}
