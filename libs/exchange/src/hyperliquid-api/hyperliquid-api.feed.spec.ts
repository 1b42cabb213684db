import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { FakeHyperliquidServer, fixtureFills, fixtureJson } from '#testing';
import type { NodeFillsBlock, NodeTwapStatusesBlock } from '../node/node-block.types.js';
import { HyperliquidApiFeed, type HyperliquidApiFeedOptions } from './hyperliquid-api.feed.js';
import type { AddressStateChange, ApiFeedBlock } from './hyperliquid-api.types.js';

const ALICE = '0x2ba553d9f990a3b66b03b2dc0d030dfc1c061036';
const TWAP_STATE = (fixtureJson('node_twap_statuses_by_block.json') as { events: Array<{ state: Record<string, unknown> }> }).events[0]!
  .state;
const FILLS = fixtureFills();
const LAST_MS = Math.max(...FILLS.map((f) => f['time'] as number));
const later = (tid: number, minutes: number) => ({ ...FILLS[0], tid, time: LAST_MS + minutes * 60_000 });

describe('HyperliquidApiFeed', () => {
  let server: FakeHyperliquidServer;
  let feed: HyperliquidApiFeed;
  const blocks: ApiFeedBlock[] = [];

  /** Takes blocks from the feed until the condition holds. */
  async function takeUntil(what: string, check: () => boolean): Promise<void> {
    for (let tries = 0; tries < 300 && !check(); tries++) {
      const batch = await feed.next(1000, 20);
      if (batch.issues.length) throw new Error(`issues: ${JSON.stringify(batch.issues)}`);
      blocks.push(...batch.blocks);
    }
    if (!check()) throw new Error(`gave up waiting for ${what}`);
  }
  const fillEvents = () => blocks.flatMap((b) => (b.stream === 'node_fills_by_block' ? (b.block as NodeFillsBlock).events : []));

  beforeEach(async () => {
    blocks.length = 0;
    server = await FakeHyperliquidServer.start({ userFillsByTime: 150 });
    server.loadFixtureHistory(ALICE);
    server
      .account(ALICE)
      .twaps.push(
        { time: 1764867622, state: TWAP_STATE, status: { status: 'activated' }, twapId: 1430699 },
        { time: 1764868222, state: TWAP_STATE, status: { status: 'terminated' }, twapId: 1430699 },
      );
  });

  function startFeed(options: Partial<HyperliquidApiFeedOptions> = {}): void {
    feed = new HyperliquidApiFeed({
      infoUrl: server.infoUrl,
      wsUrl: server.wsUrl,
      addresses: [ALICE],
      backfillFromMs: 0,
      pageLimits: { userFillsByTime: 150 },
      info: { retryBaseMs: 5 },
      ws: { reconnectBaseMs: 10, reconnectMaxMs: 40 },
      ...options,
    });
    feed.start();
  }

  afterEach(async () => {
    await feed.stop();
    await server.close();
  });

  it('hands each fill over once, whether it comes in the snapshot, the backfill or live on two channels, before and after a reconnection', async () => {
    startFeed();
    await takeUntil('the recorded fills', () => feed.stateOf(ALICE) === 'live' && fillEvents().length === 500);
    server.addFills(ALICE, [later(1, 1), later(2, 2)], { live: true });
    const connections = server.connections.length;
    server.dropConnections(); // the new connection repeats everything: snapshot, then backfill from the cursor
    await takeUntil('the reconnection', () => server.connections.length === connections + 1 && feed.stateOf(ALICE) === 'live');
    server.addFills(ALICE, [later(3, 3)], { live: true });
    await takeUntil('the last fill', () => fillEvents().some((e) => e.fill.tid === 3));

    const tids = fillEvents().map((e) => e.fill.tid);
    expect(tids).toHaveLength(503);
    expect(new Set(tids).size).toBe(503);
    expect(fillEvents().every((e) => e.address === ALICE)).toBe(true);
  });

  it('reconnects when the backfill fails, and backfills again on the new connection', async () => {
    const states: AddressStateChange[] = [];
    server.failNextInfo(500, 500, 503); // two attempts per request: the first backfill gives up, the second gets through
    startFeed({ info: { retryBaseMs: 1, maxAttempts: 2 }, onStateChange: (change) => states.push(change) });
    await takeUntil('the recorded fills', () => feed.stateOf(ALICE) === 'live' && fillEvents().length === 500);
    expect(states.map((s) => s.state)).toEqual(['connecting', 'backfilling', 'reconnecting', 'connecting', 'backfilling', 'live']);
    expect(states[2]).toMatchObject({
      attempt: 1,
      reason: 'backfill failed: info userFillsByTime: HTTP 500 "server error" (gave up after 2 attempts)',
    });
    // Two failed tries, one more on the new connection, then its backfill from the start: four pages of 150.
    const starts = server.infoRequests.filter((r) => r['type'] === 'userFillsByTime').map((r) => r['startTime']);
    expect(starts).toHaveLength(7);
    expect(starts.slice(0, 4)).toEqual([0, 0, 0, 0]);
  });

  it('yields blocks numbered by event time, carrying the cursors as they stand after each', async () => {
    startFeed();
    await takeUntil('the history', () => feed.stateOf(ALICE) === 'live' && fillEvents().length === 500);
    for (const { block } of blocks) {
      expect(block.blockNumber).toBe(block.blockTimeMs);
      expect(block.blockTime).toBe(new Date(block.blockTimeMs).toISOString());
    }
    const fillBlocks = blocks.filter((b) => b.stream === 'node_fills_by_block');
    for (const { block } of fillBlocks) for (const e of (block as NodeFillsBlock).events) expect(e.fill.time).toBe(block.blockTimeMs);
    // Backfill pages come oldest first (a millisecond cut by a page boundary gives two blocks of that time).
    const times = fillBlocks.map((b) => b.block.blockTimeMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(times)).toEqual(new Set(FILLS.map((f) => f['time'])));
    for (const { block, position } of fillBlocks) expect(position).toEqual({ lastBlock: null, cursors: { [ALICE]: block.blockTimeMs } });
    expect(times.at(-1)).toBe(LAST_MS);

    // TWAP statuses come from the userTwapHistory snapshot (no info backfill exists for them); wire seconds become ms.
    const twaps = blocks.filter((b) => b.stream === 'node_twap_statuses_by_block').map((b) => b.block as NodeTwapStatusesBlock);
    expect(twaps.map((b) => [b.blockNumber, b.events.map((e) => [e.twapId, e.status, e.timeMs, e.state.sz, e.state.user])])).toEqual([
      [1764867622000, [[1430699, 'activated', 1764867622000, '108.36', '0x9d6a5ab97a8eed617bde9968d9ab6fcf72fde1b8']]],
      [1764868222000, [[1430699, 'terminated', 1764868222000, '108.36', '0x9d6a5ab97a8eed617bde9968d9ab6fcf72fde1b8']]],
    ]);
  });
});
