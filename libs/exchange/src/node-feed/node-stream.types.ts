import type { NodeBlockOf, NodeStream } from '../node/node-block.types.js';
import type { ParseIssue } from '../parse/parse-result.js';

/** Where one stream's reading stands; stored by the caller, per stream. */
export interface NodeStreamCheckpoint {
  /** The hourly file being read, relative to `<stream>/hourly`: `20260628/8`. */
  file: string;
  /** Byte offset just after the last consumed line. */
  offset: number;
  /** Lines consumed in `file`, so a malformed line can be reported by its line number. */
  line: number;
  /**
   * The highest block delivered, null before the first. A block at or below it is never delivered again,
   * which keeps a stale offset (stored apart from the block data, or from an older backup) harmless.
   */
  lastBlock: number | null;
}

export interface NodeStreamBlock<S extends NodeStream = NodeStream> {
  block: NodeBlockOf<S>;
  /** The checkpoint to store with this block's data, in the same transaction. */
  position: NodeStreamCheckpoint;
}

export interface NodeStreamPoll<S extends NodeStream = NodeStream> {
  blocks: NodeStreamBlock<S>[];
  /** Malformed lines (skipped) and malformed events of delivered blocks. */
  issues: ParseIssue[];
  /**
   * Where the next poll starts: past every consumed line, also the malformed and already delivered ones
   * after the last block. Null while the stream has no file yet.
   */
  checkpoint: NodeStreamCheckpoint | null;
}

export interface NodeStreamReaderOptions {
  /** Bytes read per system call; a line longer than this is assembled from several reads. */
  readChunkBytes?: number;
}
