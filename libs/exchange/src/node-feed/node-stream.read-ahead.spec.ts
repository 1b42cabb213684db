import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { rename, writeFile } from 'node:fs/promises';
import { NodeStreamReader } from './node-stream.reader.js';
import type { NodeStreamCheckpoint } from './node-stream.types.js';
import { blockLine, blockLines, NodeDataDir } from '#testing';

const FILLS = 'node_fills_by_block';

/** A line whose second event has a bad price: delivered with its good event and an issue. */
const withBadEvent = (blockNumber: number): string =>
  blockLine(FILLS, blockNumber, (block) => {
    const events = block['events'] as [string, Record<string, unknown>][];
    block['events'] = [events[0], [events[0]![0], { ...events[0]![1], px: '1e3' }]];
  });

// A poll that stops at maxBlocks parses the lines after it in the background; the next poll must return
// exactly what a reader without that read-ahead (a new one, from the same checkpoint) returns.
describe('NodeStreamReader read-ahead', () => {
  let dir: NodeDataDir;
  const reader = (checkpoint: NodeStreamCheckpoint | null = null) => new NodeStreamReader(dir.root, FILLS, checkpoint);
  /** The lines parsed ahead so far, once the background reading has stopped. */
  const readAhead = async (r: NodeStreamReader<typeof FILLS>): Promise<number> => {
    const ahead = r['readAhead'];
    await ahead?.done;
    return ahead?.lines.length ?? 0;
  };

  beforeEach(async () => {
    dir = await NodeDataDir.create();
  });
  afterEach(async () => {
    await dir.remove();
  });

  it('hands the next poll the lines it parsed, malformed and already delivered ones included, as a fresh read would', async () => {
    const text = blockLines(FILLS, [1, 2, 3]) + 'not json\n' + blockLine(FILLS, 2) + withBadEvent(4) + blockLines(FILLS, [5, 6, 7]);
    await dir.write(FILLS, '20260628/8', text);
    const r = reader();
    const first = await r.poll(3);
    expect(await readAhead(r)).toBe(3);

    const second = await r.poll(3);
    const fresh = await reader(first.checkpoint).poll(3);
    expect(second).toEqual(fresh);
    expect(second.blocks.map((b) => b.block.blockNumber)).toEqual([4, 5, 6]);
    expect(second.issues.map((i) => [i.source.line, i.path])).toEqual([
      [4, ''],
      [6, 'events[1].fill.px'],
    ]);
    expect(second.checkpoint).toMatchObject({ line: 8, lastBlock: 6 });
  });

  it('goes on after the parsed lines with what the node appended meanwhile', async () => {
    await dir.write(FILLS, '20260628/8', blockLines(FILLS, [1, 2, 3, 4]));
    const r = reader();
    await r.poll(2);
    expect(await readAhead(r)).toBe(2);
    await dir.append(FILLS, '20260628/8', blockLines(FILLS, [5, 6]));
    const poll = await r.poll(10);
    expect(poll.blocks.map((b) => b.block.blockNumber)).toEqual([3, 4, 5, 6]);
    expect(poll.checkpoint).toMatchObject({ line: 6, lastBlock: 6 });
  });

  it('is not used for a file replaced since it was read', async () => {
    await dir.write(FILLS, '20260628/8', blockLines(FILLS, [1, 2, 3, 4]));
    const r = reader();
    const first = await r.poll(2);
    expect(await readAhead(r)).toBe(2);
    // Another file moved in under the same name, at least as long: same offsets, other blocks.
    const replacement = dir.path(FILLS, '20260628/8.new');
    await writeFile(replacement, blockLines(FILLS, [1, 2, 30, 40, 50]));
    await rename(replacement, dir.path(FILLS, '20260628/8'));
    const poll = await r.poll(10);
    expect(poll).toEqual(await reader(first.checkpoint).poll(10));
    expect(poll.blocks.map((b) => b.block.blockNumber)).toEqual([30, 40, 50]);
  });

  it('is not started by a poll that reached the end of what is written', async () => {
    await dir.write(FILLS, '20260628/8', blockLines(FILLS, [1, 2]));
    const r = reader();
    await r.poll(10);
    expect(r['readAhead']).toBeNull();
  });
});
