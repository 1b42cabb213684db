import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseBlockLine } from '../node/node-block.parser.js';
import type { NodeStream } from '../node/node-block.types.js';
import { readCompleteLines, readRest } from './file-lines.js';
import { compareHourlyFiles, listHourlyFiles, parseHourlyName, type HourlyFile } from './hourly-files.js';
import type { NodeStreamCheckpoint, NodeStreamPoll, NodeStreamReaderOptions } from './node-stream.types.js';

const DEFAULT_CHUNK_BYTES = 1 << 20;

/**
 * Tails one stream of an hl-node `--batch-by-block` data directory, file after hourly file. State only
 * advances when a poll returns, so a poll that throws can simply be repeated.
 */
export class NodeStreamReader<S extends NodeStream = NodeStream> {
  private readonly streamDir: string;
  private readonly chunkBytes: number;
  private current: NodeStreamCheckpoint | null;

  constructor(
    dataDir: string,
    readonly stream: S,
    checkpoint: NodeStreamCheckpoint | null,
    options: NodeStreamReaderOptions = {},
  ) {
    if (checkpoint !== null && parseHourlyName(checkpoint.file) === null) {
      throw new Error(`checkpoint of ${stream} names ${JSON.stringify(checkpoint.file)}, not an hourly file`);
    }
    this.streamDir = join(dataDir, stream);
    this.chunkBytes = options.readChunkBytes ?? DEFAULT_CHUNK_BYTES;
    this.current = checkpoint;
  }

  /** Where the next poll starts; null while the stream has no file yet. */
  get checkpoint(): NodeStreamCheckpoint | null {
    return this.current;
  }

  /** Reads on from the checkpoint until `maxBlocks` blocks or the end of what the node has written. */
  async poll(maxBlocks: number): Promise<NodeStreamPoll<S>> {
    if (!(maxBlocks >= 1)) throw new RangeError(`maxBlocks must be at least 1, got ${maxBlocks}`);
    const out: NodeStreamPoll<S> = { blocks: [], issues: [], checkpoint: this.current };
    const files = await listHourlyFiles(this.streamDir, this.current ? parseHourlyName(this.current.file)!.date : undefined);
    let pos = this.start(files, out);
    if (pos === null) return out;
    while (out.blocks.length < maxBlocks) {
      const file = pos.file;
      const later = files.slice(files.findIndex((f) => f.name === file) + 1);
      // Checked before reading: the node writes the newest file only, and once a later file has data it
      // has flushed this one for good, so whatever this read finds is all there will ever be. A later
      // file that merely exists is not enough: it can be created before the previous one's last flush.
      const finished = await this.anyHasData(later);
      const read = await this.readLines(pos, maxBlocks, out);
      pos = read.pos;
      if (read.full || !finished) break;
      pos = await this.readTail(pos, out);
      pos = { file: later[0]!.name, offset: 0, line: 0, lastBlock: pos.lastBlock };
    }
    this.current = pos;
    out.checkpoint = pos;
    return out;
  }

  private start(files: HourlyFile[], out: NodeStreamPoll<S>): NodeStreamCheckpoint | null {
    const current = this.current;
    if (current === null) return files[0] ? { file: files[0].name, offset: 0, line: 0, lastBlock: null } : null;
    if (files.some((f) => f.name === current.file)) return current;
    // The node prunes old hours; if ours went before it was read to the end, say so and go on.
    const at = parseHourlyName(current.file)!;
    const next = files.find((f) => compareHourlyFiles(f, at) > 0);
    if (next === undefined) return null;
    out.issues.push({
      source: { stream: this.stream, file: this.path(current.file), line: current.line },
      path: '',
      message: `file is gone; continuing with ${next.name} (blocks after ${current.lastBlock ?? 'none'} in it may be missing)`,
    });
    return { file: next.name, offset: 0, line: 0, lastBlock: current.lastBlock };
  }

  private async readLines(from: NodeStreamCheckpoint, maxBlocks: number, out: NodeStreamPoll<S>) {
    let pos = from;
    const path = this.path(pos.file);
    if ((await stat(path)).size < pos.offset) {
      // The file was replaced: read it again, lastBlock keeps what was delivered from coming twice.
      out.issues.push({
        source: { stream: this.stream, file: path },
        path: '',
        message: `file is shorter than the checkpoint offset ${pos.offset}; reading it again from the start`,
      });
      pos = { ...pos, offset: 0, line: 0 };
    }
    for await (const line of readCompleteLines(path, pos.offset, this.chunkBytes)) {
      pos = this.consume(line.text, { ...pos, offset: line.end, line: pos.line + 1 }, out);
      if (out.blocks.length >= maxBlocks) return { pos, full: true };
    }
    return { pos, full: false };
  }

  /** The unterminated end of a file the node has left: a block cut short by a crash, or a line without newline. */
  private async readTail(pos: NodeStreamCheckpoint, out: NodeStreamPoll<S>): Promise<NodeStreamCheckpoint> {
    const rest = await readRest(this.path(pos.file), pos.offset);
    if (rest.bytes === 0) return pos;
    return this.consume(rest.text, { ...pos, offset: pos.offset + rest.bytes, line: pos.line + 1 }, out);
  }

  /** Takes one line whose position is `next`; returns the position after it. */
  private consume(text: string, next: NodeStreamCheckpoint, out: NodeStreamPoll<S>): NodeStreamCheckpoint {
    const result = parseBlockLine(this.stream, text, { file: this.path(next.file), line: next.line });
    if (!result.ok) {
      out.issues.push(result.error);
      return next;
    }
    if (next.lastBlock !== null && result.value.blockNumber <= next.lastBlock) return next;
    out.issues.push(...result.issues);
    const position = { ...next, lastBlock: result.value.blockNumber };
    out.blocks.push({ block: result.value, position });
    return position;
  }

  private async anyHasData(files: HourlyFile[]): Promise<boolean> {
    for (const file of files) {
      try {
        if ((await stat(this.path(file.name))).size > 0) return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return false;
  }

  private path(file: string): string {
    return join(this.streamDir, 'hourly', file);
  }
}
