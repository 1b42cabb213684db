import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parseBlockLine } from '../node/node-block.parser.js';
import type { NodeBlockOf, NodeStream } from '../node/node-block.types.js';
import type { ParseResult } from '../parse/parse-result.js';
import { readCompleteLines, readRest } from './file-lines.js';
import { compareHourlyFiles, listHourlyFiles, parseHourlyName, type HourlyFile } from './hourly-files.js';
import type { NodeStreamCheckpoint, NodeStreamPoll, NodeStreamReaderOptions } from './node-stream.types.js';

const DEFAULT_CHUNK_BYTES = 1 << 20;
/** Lines the read-ahead parses between two turns of the event loop (a few milliseconds of work). */
const LINES_PER_TURN = 8;

/** A line parsed ahead of the poll that will take it: its parse result and the offset after it. */
interface ParsedLine {
  result: ParseResult<NodeBlockOf<NodeStream>>;
  end: number;
}

/** The lines of one file after a checkpoint, parsed while the caller stores the previous poll's blocks. */
interface ReadAhead {
  from: NodeStreamCheckpoint;
  /** The file's inode when it was read: a replaced file is read again, not taken from here. */
  inode: number;
  lines: ParsedLine[];
  stop: boolean;
  failed: boolean;
  done: Promise<void>;
}

/**
 * Tails one stream of an hl-node `--batch-by-block` data directory, file after hourly file. State only
 * advances when a poll returns, so a poll that throws can simply be repeated.
 */
export class NodeStreamReader<S extends NodeStream = NodeStream> {
  private readonly streamDir: string;
  private readonly chunkBytes: number;
  private current: NodeStreamCheckpoint | null;
  private readAhead: ReadAhead | null = null;

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

  /**
   * Reads on from the checkpoint until `maxBlocks` blocks or the end of what the node has written. A poll
   * that stops at `maxBlocks` leaves a backlog behind, so the lines after it are read and parsed in the
   * background (as many again, a few at a time), while the caller is busy storing what this poll returned:
   * parsing is most of a poll's work and otherwise waits for the store. The next poll takes those lines
   * if they are where it starts, else reads as if there were none; either way it returns the same.
   */
  async poll(maxBlocks: number): Promise<NodeStreamPoll<S>> {
    if (!(maxBlocks >= 1)) throw new RangeError(`maxBlocks must be at least 1, got ${maxBlocks}`);
    const out: NodeStreamPoll<S> = { blocks: [], issues: [], checkpoint: this.current };
    const files = await listHourlyFiles(this.streamDir, this.current ? parseHourlyName(this.current.file)!.date : undefined);
    let pos = this.start(files, out);
    if (pos === null) return out;
    let full = false;
    while (out.blocks.length < maxBlocks) {
      const file = pos.file;
      const later = files.slice(files.findIndex((f) => f.name === file) + 1);
      // Checked before reading: the node writes the newest file only, and once a later file has data it
      // has flushed this one for good, so whatever this read finds is all there will ever be. A later
      // file that merely exists is not enough: it can be created before the previous one's last flush.
      const finished = await this.anyHasData(later);
      const read = await this.readLines(pos, maxBlocks, out);
      pos = read.pos;
      full = read.full;
      if (read.full || !finished) break;
      pos = await this.readTail(pos, out);
      pos = { file: later[0]!.name, offset: 0, line: 0, lastBlock: pos.lastBlock };
    }
    this.current = pos;
    out.checkpoint = pos;
    if (full) this.readAhead = this.startReadAhead(pos, maxBlocks);
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
    const info = await stat(path);
    if (info.size < pos.offset) {
      // The file was replaced: read it again, lastBlock keeps what was delivered from coming twice.
      out.issues.push({
        source: { stream: this.stream, file: path },
        path: '',
        message: `file is shorter than the checkpoint offset ${pos.offset}; reading it again from the start`,
      });
      pos = { ...pos, offset: 0, line: 0 };
    }
    for (const parsed of await this.takeReadAhead(pos, info)) {
      // Parsed by this reader, so of its stream.
      const result = parsed.result as ParseResult<NodeBlockOf<S>>;
      pos = this.take(result, { ...pos, offset: parsed.end, line: pos.line + 1 }, out);
      if (out.blocks.length >= maxBlocks) return { pos, full: true };
    }
    for await (const line of readCompleteLines(path, pos.offset, this.chunkBytes)) {
      pos = this.consume(line.text, path, { ...pos, offset: line.end, line: pos.line + 1 }, out);
      if (out.blocks.length >= maxBlocks) return { pos, full: true };
    }
    return { pos, full: false };
  }

  /** Parses up to `maxLines` complete lines of the file from `from`, yielding to the event loop as it goes. */
  private startReadAhead(from: NodeStreamCheckpoint, maxLines: number): ReadAhead {
    const ahead: ReadAhead = { from, inode: -1, lines: [], stop: false, failed: false, done: Promise.resolve() };
    const path = this.path(from.file);
    const read = async () => {
      await nextTurn();
      if (ahead.stop) return;
      ahead.inode = (await stat(path)).ino;
      const stream: NodeStream = this.stream;
      let line = from.line;
      for await (const complete of readCompleteLines(path, from.offset, this.chunkBytes)) {
        line++;
        ahead.lines.push({ result: parseBlockLine(stream, complete.text, { file: path, line }), end: complete.end });
        if (ahead.lines.length >= maxLines) return;
        if (ahead.lines.length % LINES_PER_TURN === 0) await nextTurn();
        if (ahead.stop) return;
      }
    };
    // A failed read-ahead is only thrown away: the poll then reads those lines itself and meets the error.
    ahead.done = read().catch(() => {
      ahead.failed = true;
    });
    return ahead;
  }

  /** The read-ahead lines if they start at `pos` in the same file, still as long as when they were read. */
  private async takeReadAhead(pos: NodeStreamCheckpoint, file: { ino: number; size: number }): Promise<ParsedLine[]> {
    const ahead = this.readAhead;
    if (ahead === null) return [];
    this.readAhead = null;
    ahead.stop = true;
    await ahead.done;
    const samePlace = ahead.from.file === pos.file && ahead.from.offset === pos.offset && ahead.from.line === pos.line;
    const sameFile = ahead.inode === file.ino && file.size >= (ahead.lines.at(-1)?.end ?? 0);
    return !ahead.failed && samePlace && sameFile ? ahead.lines : [];
  }

  /** The unterminated end of a file the node has left: a block cut short by a crash, or a line without newline. */
  private async readTail(pos: NodeStreamCheckpoint, out: NodeStreamPoll<S>): Promise<NodeStreamCheckpoint> {
    const path = this.path(pos.file);
    const rest = await readRest(path, pos.offset);
    if (rest.bytes === 0) return pos;
    return this.consume(rest.text, path, { ...pos, offset: pos.offset + rest.bytes, line: pos.line + 1 }, out);
  }

  /** Takes one line of the file at `path` whose position is `next`; returns the position after it. */
  private consume(text: string, path: string, next: NodeStreamCheckpoint, out: NodeStreamPoll<S>): NodeStreamCheckpoint {
    return this.take(parseBlockLine(this.stream, text, { file: path, line: next.line }), next, out);
  }

  private take(result: ParseResult<NodeBlockOf<S>>, next: NodeStreamCheckpoint, out: NodeStreamPoll<S>): NodeStreamCheckpoint {
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
