import { NODE_STREAMS, type NodeStream } from '../node/node-block.types.js';
import type { ParseIssue } from '../parse/parse-result.js';
import { NodeStreamReader } from './node-stream.reader.js';
import type { NodeStreamBlock, NodeStreamCheckpoint, NodeStreamReaderOptions } from './node-stream.types.js';

export type NodeFeedCheckpoints = Record<NodeStream, NodeStreamCheckpoint | null>;

export interface NodeFeedPoll {
  /** Every stream's new blocks, by block number, then in NODE_STREAMS order. */
  blocks: NodeStreamBlock[];
  issues: ParseIssue[];
  checkpoints: NodeFeedCheckpoints;
}

const STREAM_ORDER = new Map<NodeStream, number>(NODE_STREAMS.map((stream, index) => [stream, index]));

/**
 * All four streams of an hl-node data directory as one sequence per poll. Each stream is read as far as
 * it goes and none waits for another, so the order holds within a poll: a stream that lags behind can
 * still deliver lower block numbers in a later poll. Checkpoints are per stream.
 */
export class NodeDirectoryFeed {
  private readonly readers: NodeStreamReader[];

  constructor(dataDir: string, checkpoints: Partial<NodeFeedCheckpoints> = {}, options: NodeStreamReaderOptions = {}) {
    this.readers = NODE_STREAMS.map((stream) => new NodeStreamReader(dataDir, stream, checkpoints[stream] ?? null, options));
  }

  /**
   * Polls every stream for up to `maxBlocksPerStream` blocks. A stream that cannot be read (permissions, a
   * file vanishing mid-read) is one issue and is retried from its unchanged checkpoint on the next poll,
   * so it never stops the others.
   */
  async poll(maxBlocksPerStream: number): Promise<NodeFeedPoll> {
    if (!(maxBlocksPerStream >= 1)) throw new RangeError(`maxBlocksPerStream must be at least 1, got ${maxBlocksPerStream}`);
    const settled = await Promise.allSettled(this.readers.map((reader) => reader.poll(maxBlocksPerStream)));
    const result: NodeFeedPoll = { blocks: [], issues: [], checkpoints: {} as NodeFeedCheckpoints };
    settled.forEach((outcome, index) => {
      const reader = this.readers[index]!;
      if (outcome.status === 'rejected') {
        result.issues.push({ source: { stream: reader.stream }, path: '', message: `cannot read: ${describeError(outcome.reason)}` });
        result.checkpoints[reader.stream] = reader.checkpoint;
        return;
      }
      result.blocks.push(...outcome.value.blocks);
      result.issues.push(...outcome.value.issues);
      result.checkpoints[reader.stream] = outcome.value.checkpoint;
    });
    result.blocks.sort(
      (a, b) => a.block.blockNumber - b.block.blockNumber || STREAM_ORDER.get(a.block.stream)! - STREAM_ORDER.get(b.block.stream)!,
    );
    return result;
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
