import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { NodeStream } from '../node/node-block.types.js';
import { NodeStreamReader } from './node-stream.reader.js';
import type { NodeStreamCheckpoint, NodeStreamPoll } from './node-stream.types.js';
import { blockLine, blockLines, NodeDataDir } from '#testing';

const FILLS = 'node_fills_by_block';
const numbers = <S extends NodeStream>(poll: NodeStreamPoll<S>): number[] => poll.blocks.map((b) => b.block.blockNumber);
const bytes = (text: string): number => Buffer.byteLength(text);

describe('NodeStreamReader', () => {
  let dir: NodeDataDir;
  const reader = (checkpoint: NodeStreamCheckpoint | null = null, readChunkBytes?: number) =>
    new NodeStreamReader(dir.root, FILLS, checkpoint, { readChunkBytes });

  beforeEach(async () => {
    dir = await NodeDataDir.create();
  });
  afterEach(async () => {
    await dir.remove();
  });

  it('delivers the blocks of a file in order, each with the checkpoint to store after it', async () => {
    const text = blockLines(FILLS, [101, 102, 103]);
    await dir.write(FILLS, '20260628/8', text);
    const poll = await reader().poll(10);
    expect(numbers(poll)).toEqual([101, 102, 103]);
    expect(poll.issues).toEqual([]);
    const first = bytes(blockLine(FILLS, 101));
    expect(poll.blocks[0]!.position).toEqual({ file: '20260628/8', offset: first, line: 1, lastBlock: 101 });
    expect(poll.blocks[2]!.position).toEqual({ file: '20260628/8', offset: bytes(text), line: 3, lastBlock: 103 });
    expect(poll.checkpoint).toEqual(poll.blocks[2]!.position);
    // The recorded block is parsed by the real parser, events and all.
    expect(poll.blocks[0]!.block.stream).toBe(FILLS);
    expect(poll.blocks[0]!.block.events[0]!.fill.px).toBe('72.153');
  });

  it('stops at maxBlocks and goes on from there on the next poll', async () => {
    await dir.write(FILLS, '20260628/8', blockLines(FILLS, [1, 2, 3, 4, 5]));
    const r = reader();
    expect(numbers(await r.poll(2))).toEqual([1, 2]);
    expect(numbers(await r.poll(2))).toEqual([3, 4]);
    expect(numbers(await r.poll(2))).toEqual([5]);
    expect(numbers(await r.poll(2))).toEqual([]);
  });

  it('holds back a half-written last line and delivers it once, when completed', async () => {
    const complete = blockLines(FILLS, [1, 2]);
    const third = blockLine(FILLS, 3);
    await dir.write(FILLS, '20260628/8', complete + third.slice(0, 200));
    const r = reader();
    const first = await r.poll(10);
    expect(numbers(first)).toEqual([1, 2]);
    expect(first.issues).toEqual([]);
    expect(first.checkpoint!.offset).toBe(bytes(complete));
    expect(numbers(await r.poll(10))).toEqual([]);
    await dir.append(FILLS, '20260628/8', third.slice(200, -1)); // all but the newline
    expect(numbers(await r.poll(10))).toEqual([]);
    await dir.append(FILLS, '20260628/8', '\n');
    const last = await r.poll(10);
    expect(numbers(last)).toEqual([3]);
    expect(last.checkpoint).toEqual({ file: '20260628/8', offset: bytes(complete + third), line: 3, lastBlock: 3 });
    expect(numbers(await r.poll(10))).toEqual([]);
  });

  describe('resuming (a new reader is a restarted process)', () => {
    it('from the checkpoint of a block mid-file: neither duplicates nor gaps', async () => {
      await dir.write(FILLS, '20260628/8', blockLines(FILLS, [1, 2, 3, 4, 5]));
      const before = await reader().poll(10);
      // Killed after storing block 2 only: the rest of the poll was never committed.
      const after = await reader(before.blocks[1]!.position).poll(10);
      expect(numbers(after)).toEqual([3, 4, 5]);
    });

    it('from the end of a poll, across later appends and a new hourly file', async () => {
      await dir.write(FILLS, '20260628/8', blockLines(FILLS, [1, 2]));
      const delivered: number[] = [];
      let checkpoint: NodeStreamCheckpoint | null = null;
      const restart = async () => {
        const poll = await reader(checkpoint).poll(10);
        delivered.push(...numbers(poll));
        checkpoint = poll.checkpoint;
      };
      await restart();
      await dir.append(FILLS, '20260628/8', blockLines(FILLS, [3, 4]) + blockLine(FILLS, 5).slice(0, 50));
      await restart();
      await dir.append(FILLS, '20260628/8', blockLine(FILLS, 5).slice(50));
      await restart();
      await dir.write(FILLS, '20260628/9', blockLines(FILLS, [6]));
      await restart();
      await restart();
      expect(delivered).toEqual([1, 2, 3, 4, 5, 6]);
      expect(checkpoint).toMatchObject({ file: '20260628/9', line: 1, lastBlock: 6 });
    });

    it('a stale offset does not deliver again what lastBlock says was delivered', async () => {
      await dir.write(FILLS, '20260628/8', blockLines(FILLS, [1, 2, 3, 4, 5]));
      const poll = await reader({ file: '20260628/8', offset: 0, line: 0, lastBlock: 3 }).poll(10);
      expect(numbers(poll)).toEqual([4, 5]);
      expect(poll.issues).toEqual([]);
      expect(poll.checkpoint).toMatchObject({ line: 5, lastBlock: 5 });
    });

    it('an offset past the end of a replaced file reads it again, without duplicates', async () => {
      const text = blockLines(FILLS, [1, 2, 3]);
      await dir.write(FILLS, '20260628/8', text);
      const poll = await reader({ file: '20260628/8', offset: bytes(text) + 100, line: 9, lastBlock: 2 }).poll(10);
      expect(numbers(poll)).toEqual([3]);
      expect(poll.issues).toEqual([expect.objectContaining({ message: expect.stringMatching(/shorter than the checkpoint offset/) })]);
      expect(poll.checkpoint).toEqual({ file: '20260628/8', offset: bytes(text), line: 3, lastBlock: 3 });
    });
  });

  describe('hourly files', () => {
    it('are read by date, then by numeric hour (9 before 10)', async () => {
      await dir.write(FILLS, '20260628/10', blockLines(FILLS, [40]));
      await dir.write(FILLS, '20260628/9', blockLines(FILLS, [30]));
      await dir.write(FILLS, '20260628/8', blockLines(FILLS, [20]));
      await dir.write(FILLS, '20260627/23', blockLines(FILLS, [10]));
      const poll = await reader().poll(10);
      expect(numbers(poll)).toEqual([10, 20, 30, 40]);
      expect(poll.checkpoint).toMatchObject({ file: '20260628/10', line: 1 });
    });

    it('moves to the next file once the node writes there, not merely when it exists', async () => {
      await dir.write(FILLS, '20260628/9', blockLines(FILLS, [1]));
      const r = reader();
      expect(numbers(await r.poll(10))).toEqual([1]);
      // The node creates the next hour's file before its last flush of the previous one.
      await dir.write(FILLS, '20260628/10', '');
      expect(numbers(await r.poll(10))).toEqual([]);
      await dir.append(FILLS, '20260628/9', blockLines(FILLS, [2]));
      await dir.append(FILLS, '20260628/10', blockLines(FILLS, [3]));
      const poll = await r.poll(10);
      expect(numbers(poll)).toEqual([2, 3]);
      expect(poll.checkpoint).toMatchObject({ file: '20260628/10', line: 1, lastBlock: 3 });
      await dir.write(FILLS, '20260628/11', blockLines(FILLS, [4]));
      expect(numbers(await r.poll(10))).toEqual([4]);
    });

    it('report the cut-off last line of a file the node has left, then go on', async () => {
      const kept = blockLines(FILLS, [1]);
      await dir.write(FILLS, '20260628/8', kept + blockLine(FILLS, 2).slice(0, 80));
      await dir.write(FILLS, '20260628/9', blockLines(FILLS, [3]));
      const poll = await reader().poll(10);
      expect(numbers(poll)).toEqual([1, 3]);
      expect(poll.issues).toEqual([
        {
          source: { stream: FILLS, file: dir.path(FILLS, '20260628/8'), line: 2 },
          path: '',
          message: expect.stringMatching(/^not JSON/),
        },
      ]);
    });

    it('a file pruned before it was read to the end is reported and the next one read', async () => {
      await dir.write(FILLS, '20260628/9', blockLines(FILLS, [30]));
      const poll = await reader({ file: '20260628/8', offset: 500, line: 1, lastBlock: 20 }).poll(10);
      expect(numbers(poll)).toEqual([30]);
      expect(poll.issues).toEqual([
        expect.objectContaining({ message: expect.stringMatching(/^file is gone; continuing with 20260628\/9/) }),
      ]);
    });

    it('ignore what hl-node does not write there', async () => {
      await dir.write(FILLS, '20260628/8', blockLines(FILLS, [1]));
      await dir.write(FILLS, '20260628/8.tmp', 'junk\n');
      await dir.write(FILLS, '20260628/24', 'junk\n');
      await dir.write(FILLS, 'latest/8', 'junk\n');
      const poll = await reader().poll(10);
      expect(numbers(poll)).toEqual([1]);
      expect(poll.issues).toEqual([]);
    });
  });

  it('a stream directory that does not exist is no error, and is read once it appears', async () => {
    const r = reader();
    const empty = await r.poll(10);
    expect(empty).toEqual({ blocks: [], issues: [], checkpoint: null });
    await dir.write(FILLS, '20260628/8', blockLines(FILLS, [7]));
    expect(numbers(await r.poll(10))).toEqual([7]);
  });

  it('reports a malformed line with its file and line number, skips it and goes on', async () => {
    await dir.write(FILLS, '20260628/8', blockLine(FILLS, 1) + '{"block_number": 2, "events": [\n' + blockLine(FILLS, 3));
    const poll = await reader().poll(10);
    expect(numbers(poll)).toEqual([1, 3]);
    expect(poll.issues).toEqual([
      { source: { stream: FILLS, file: dir.path(FILLS, '20260628/8'), line: 2 }, path: '', message: expect.stringMatching(/^not JSON/) },
    ]);
    expect(poll.checkpoint).toMatchObject({ line: 3, lastBlock: 3 });
  });

  it('delivers a block with a bad event with its good events, and the issue', async () => {
    const line = blockLine(FILLS, 5, (block) => {
      const events = block['events'] as [string, Record<string, unknown>][];
      const [user, fill] = events[0]!;
      block['events'] = [[user, { ...fill, px: 'not a price' }], events[0]];
    });
    await dir.write(FILLS, '20260628/8', line);
    const poll = await reader().poll(10);
    expect(numbers(poll)).toEqual([5]);
    expect(poll.blocks[0]!.block.events).toHaveLength(1);
    expect(poll.issues).toEqual([
      expect.objectContaining({ source: { stream: FILLS, file: dir.path(FILLS, '20260628/8'), line: 1 }, path: 'events[0].fill.px' }),
    ]);
  });

  it('cuts lines on bytes, so multi-byte characters across read chunks come through whole', async () => {
    const TWAP = 'node_twap_statuses_by_block';
    const messages = ['Ordre refusé — marge insuffisante', '保证金不足 🐋', 'ok'];
    const text = messages
      .map((message, i) =>
        blockLine(TWAP, 100 + i, (block) => {
          (block['events'] as Record<string, unknown>[])[0]!['status'] = { error: message };
        }),
      )
      .join('');
    await dir.write(TWAP, '20260628/8', text);
    const twaps = new NodeStreamReader(dir.root, TWAP, null, { readChunkBytes: 7 });
    const poll = await twaps.poll(10);
    expect(poll.blocks.map((b) => b.block.events[0]!.description)).toEqual(messages);
    expect(poll.checkpoint!.offset).toBe(bytes(text));
  });
});
