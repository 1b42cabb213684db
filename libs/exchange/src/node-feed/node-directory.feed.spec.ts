import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { NodeDirectoryFeed, type NodeFeedPoll } from './node-directory.feed.js';
import { blockLine, blockLines, NodeDataDir } from '#testing';

const order = (poll: NodeFeedPoll): string[] => poll.blocks.map((b) => `${b.block.blockNumber} ${b.block.stream}`);

describe('NodeDirectoryFeed', () => {
  let dir: NodeDataDir;
  beforeEach(async () => {
    dir = await NodeDataDir.create();
  });
  afterEach(async () => {
    await dir.remove();
  });

  it('merges the streams by block number, then stream order; a missing stream is fine', async () => {
    await dir.write('node_fills_by_block', '20260628/8', blockLines('node_fills_by_block', [10, 12]));
    await dir.write('node_order_statuses_by_block', '20260628/8', blockLines('node_order_statuses_by_block', [10, 11]));
    await dir.write('misc_events_by_block', '20260628/8', blockLines('misc_events_by_block', [9, 12]));
    const poll = await new NodeDirectoryFeed(dir.root).poll(100);
    expect(order(poll)).toEqual([
      '9 misc_events_by_block',
      '10 node_fills_by_block',
      '10 node_order_statuses_by_block',
      '11 node_order_statuses_by_block',
      '12 node_fills_by_block',
      '12 misc_events_by_block',
    ]);
    expect(poll.issues).toEqual([]);
    expect(poll.checkpoints.node_twap_statuses_by_block).toBeNull();
    expect(poll.checkpoints.node_fills_by_block).toMatchObject({ file: '20260628/8', line: 2, lastBlock: 12 });
  });

  it('a stream with nothing new, or only a half-written line, holds back no other', async () => {
    await dir.write('node_fills_by_block', '20260628/8', blockLines('node_fills_by_block', [10]));
    await dir.write('node_order_statuses_by_block', '20260628/8', blockLines('node_order_statuses_by_block', [10]));
    const feed = new NodeDirectoryFeed(dir.root);
    expect(order(await feed.poll(100))).toEqual(['10 node_fills_by_block', '10 node_order_statuses_by_block']);
    await dir.append('node_fills_by_block', '20260628/8', blockLines('node_fills_by_block', [20, 21]));
    await dir.append('node_order_statuses_by_block', '20260628/8', blockLine('node_order_statuses_by_block', 20).slice(0, 100));
    expect(order(await feed.poll(100))).toEqual(['20 node_fills_by_block', '21 node_fills_by_block']);
  });

  it('resumes each stream from its own checkpoint without duplicates or gaps', async () => {
    await dir.write('node_fills_by_block', '20260628/8', blockLines('node_fills_by_block', [1, 2, 3]));
    await dir.write('node_twap_statuses_by_block', '20260628/8', blockLines('node_twap_statuses_by_block', [2]));
    const first = await new NodeDirectoryFeed(dir.root).poll(2);
    expect(order(first)).toEqual(['1 node_fills_by_block', '2 node_fills_by_block', '2 node_twap_statuses_by_block']);
    await dir.append('node_twap_statuses_by_block', '20260628/8', blockLines('node_twap_statuses_by_block', [4]));
    const second = await new NodeDirectoryFeed(dir.root, first.checkpoints).poll(2);
    expect(order(second)).toEqual(['3 node_fills_by_block', '4 node_twap_statuses_by_block']);
  });

  it('reports malformed lines of any stream with file and line, and goes on', async () => {
    await dir.write('misc_events_by_block', '20260628/8', 'garbage\n' + blockLine('misc_events_by_block', 5));
    const poll = await new NodeDirectoryFeed(dir.root).poll(100);
    expect(order(poll)).toEqual(['5 misc_events_by_block']);
    expect(poll.issues).toEqual([
      expect.objectContaining({
        source: { stream: 'misc_events_by_block', file: dir.path('misc_events_by_block', '20260628/8'), line: 1 },
      }),
    ]);
  });
});
