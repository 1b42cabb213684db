import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NodeDirectoryFeed, type NodeFeedCheckpoints, type ParseIssue } from '#exchange';
import type { FeedBlock, WriteBlocksResult } from '../facts/exchange-facts.types.js';
import { ExchangeFactsWriter } from '../facts/exchange-facts.writer.js';
import { FeedCheckpointRepository } from '../facts/feed-checkpoint.repository.js';

export const NODE_SOURCE = 'node';

export interface IngestionRead {
  batch: FeedBlock[];
  issues: ParseIssue[];
}

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
  /** The open feed of each (source, directory): a reader keeps its place in the files between steps. */
  private readonly feeds = new Map<string, NodeDirectoryFeed>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: ExchangeFactsWriter,
    private readonly checkpoints: FeedCheckpointRepository,
  ) {}

  /**
   * One pass: up to `maxBlocksPerStream` new blocks of each stream, written in one transaction.
   * `source` names the checkpoints: `node` for a real node, `simulator` for the simulator's directory.
   */
  async step(dataDir: string, maxBlocksPerStream: number, source = NODE_SOURCE): Promise<IngestionStep> {
    const read = await this.read(dataDir, maxBlocksPerStream, source);
    return { blocks: read.batch.length, issues: read.issues, written: await this.store(dataDir, read.batch, source) };
  }

  /**
   * Reads and parses up to `maxBlocksPerStream` new blocks of each stream past what this process has read
   * (the stored checkpoints at first). Nothing is stored: `store` does, and until it has, a later read
   * continues after these blocks.
   */
  async read(dataDir: string, maxBlocksPerStream: number, source = NODE_SOURCE): Promise<IngestionRead> {
    const key = feedKey(dataDir, source);
    let feed = this.feeds.get(key);
    if (!feed) this.feeds.set(key, (feed = await this.open(dataDir, source)));
    const poll = await feed.poll(maxBlocksPerStream);
    return { batch: poll.blocks.map(({ block, position }) => ({ stream: block.stream, block, position })), issues: poll.issues };
  }

  /** Stores blocks read by `read`, in read order, in one transaction with their checkpoints; null for none. */
  async store(dataDir: string, batch: FeedBlock[], source = NODE_SOURCE): Promise<WriteBlocksResult | null> {
    if (batch.length === 0) return null;
    try {
      return await this.writer.writeBlocks(batch, source);
    } catch (error) {
      // The readers have moved past blocks that were not stored: start again from what was.
      this.forget(dataDir, source);
      throw error;
    }
  }

  /** Drops what was read and not stored: the next read starts again from the stored checkpoints. */
  forget(dataDir: string, source = NODE_SOURCE): void {
    this.feeds.delete(feedKey(dataDir, source));
  }

  private async open(dataDir: string, source: string): Promise<NodeDirectoryFeed> {
    const stored = await this.checkpoints.read(this.dataSource, source);
    return new NodeDirectoryFeed(dataDir, Object.fromEntries(stored) as Partial<NodeFeedCheckpoints>);
  }
}

const feedKey = (dataDir: string, source: string): string => `${source}\0${dataDir}`;
