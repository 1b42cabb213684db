import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { nodeTime, type NodeStream } from '#exchange';
import { fixtureJson } from './hyperliquid-fixtures.js';

// An hl-node data directory in a temporary folder, written
// with real recorded blocks whose block_number is varied to make sequences.

const SAMPLES: Record<NodeStream, () => Record<string, unknown>> = {
  node_fills_by_block: () => fixtureJson('node_fills_by_block_liquidation.json') as Record<string, unknown>,
  node_order_statuses_by_block: () => fixtureJson('node_order_statuses_by_block_excerpt.json') as Record<string, unknown>,
  node_twap_statuses_by_block: () => fixtureJson('node_twap_statuses_by_block.json') as Record<string, unknown>,
  misc_events_by_block: () => (fixtureJson('node_misc_events_by_block.json') as Record<string, unknown>[])[0]!,
};

/** A recorded block of the stream renumbered, as the one line (with its newline) hl-node writes. */
export function blockLine(stream: NodeStream, blockNumber: number, change: (block: Record<string, unknown>) => void = () => {}): string {
  const block = { ...SAMPLES[stream](), block_number: blockNumber };
  change(block);
  return `${JSON.stringify(block)}\n`;
}

export function blockLines(stream: NodeStream, blockNumbers: number[]): string {
  return blockNumbers.map((n) => blockLine(stream, n)).join('');
}

export class NodeDataDir {
  private constructor(readonly root: string) {}

  static async create(): Promise<NodeDataDir> {
    return new NodeDataDir(await mkdtemp(join(tmpdir(), 'tidewatch-node-')));
  }

  /** Absolute path of an hourly file, `file` as in checkpoints (`20260628/8`). */
  path(stream: NodeStream, file: string): string {
    return join(this.root, stream, 'hourly', file);
  }

  async write(stream: NodeStream, file: string, text: string): Promise<void> {
    await mkdir(dirname(this.path(stream, file)), { recursive: true });
    await writeFile(this.path(stream, file), text);
  }

  async append(stream: NodeStream, file: string, text: string): Promise<void> {
    await mkdir(dirname(this.path(stream, file)), { recursive: true });
    await appendFile(this.path(stream, file), text);
  }

  /** Appends one block at `timeMs` to the hourly file of that time, as a live hl-node does; answers its time text. */
  async appendBlock(stream: NodeStream, blockNumber: number, timeMs: number, events: unknown[]): Promise<string> {
    const time = nodeTime(timeMs, 0);
    const d = new Date(timeMs);
    const file = `${d.toISOString().slice(0, 10).replaceAll('-', '')}/${d.getUTCHours()}`;
    await this.append(stream, file, `${JSON.stringify({ local_time: time, block_time: time, block_number: blockNumber, events })}\n`);
    return time;
  }

  async remove(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}
