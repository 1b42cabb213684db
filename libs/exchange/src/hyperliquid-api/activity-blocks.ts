import type { NodeFillsBlock, NodeMiscEventsBlock, NodeTwapStatusesBlock } from '../node/node-block.types.js';
import type { NodeMiscEvent } from '../misc/misc-event.types.js';
import type { LedgerUpdate } from '../ledger/ledger.types.js';
import type { ApiStream, UserActivity } from './hyperliquid-api.types.js';

export type ApiBlock = NodeFillsBlock | NodeMiscEventsBlock | NodeTwapStatusesBlock;

const STREAM_ORDER: Record<ApiStream, number> = { node_fills_by_block: 0, misc_events_by_block: 1, node_twap_statuses_by_block: 2 };

const iso = (ms: number): string => new Date(ms).toISOString();

/** Items grouped by their epoch-ms time, in time order. */
function byTime<T>(items: T[], timeOf: (item: T) => number): Array<[number, T[]]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const time = timeOf(item);
    const group = groups.get(time);
    if (group) group.push(item);
    else groups.set(time, [item]);
  }
  return [...groups.entries()].sort(([a], [b]) => a - b);
}

/**
 * The wallets a ledger update touches, as hl-node lists them in `users`: the tracked one and, for
 * transfers, the sender and the receiver (so the rows match what the node feed stores).
 */
function ledgerUsers(address: string, update: LedgerUpdate): string[] {
  const users = [address];
  const delta = update.delta as { user?: unknown; destination?: unknown };
  for (const other of [delta.user, delta.destination]) if (typeof other === 'string') users.push(other.toLowerCase());
  return [...new Set(users)];
}

/**
 * The activity as normalised blocks, one per stream and event time. The public API has no block
 * heights, so `blockNumber` is synthetic: the event time in epoch ms. It orders like the exchange's
 * blocks and is the same whichever way an event arrives (snapshot, live frame or info backfill), so
 * rows keyed by it (TWAP statuses) are stored once; it is never an exchange height. `localTime` is
 * when this process received the event.
 */
export function activityBlocks(address: string, activity: UserActivity, receivedAtMs: number): ApiBlock[] {
  const header = (time: number) => ({
    blockNumber: time,
    blockTime: iso(time),
    blockTimeMs: time,
    localTime: iso(receivedAtMs),
    localTimeMs: receivedAtMs,
  });
  const blocks: ApiBlock[] = [];

  for (const [time, fills] of byTime(activity.fills, (fill) => fill.time)) {
    blocks.push({ stream: 'node_fills_by_block', ...header(time), events: fills.map((fill, index) => ({ index, address, fill })) });
  }

  type MiscItem = { time: number; event: (index: number) => NodeMiscEvent };
  const misc: MiscItem[] = [
    ...activity.ledger.map((update) => ({
      time: update.time,
      event: (index: number): NodeMiscEvent => ({
        index,
        time: iso(update.time),
        timeMs: update.time,
        hash: update.hash,
        kind: 'ledgerUpdate',
        users: ledgerUsers(address, update),
        delta: update.delta,
      }),
    })),
    ...activity.fundings.map((funding) => ({
      time: funding.time,
      event: (index: number): NodeMiscEvent => ({
        index,
        time: iso(funding.time),
        timeMs: funding.time,
        hash: funding.hash,
        kind: 'funding',
        deltas: [{ user: address, coin: funding.coin, fundingAmount: funding.usdc, szi: funding.szi, fundingRate: funding.fundingRate }],
      }),
    })),
  ];
  for (const [time, items] of byTime(misc, (item) => item.time)) {
    blocks.push({ stream: 'misc_events_by_block', ...header(time), events: items.map((item, index) => item.event(index)) });
  }

  for (const [time, twaps] of byTime(activity.twaps, (twap) => twap.timeMs)) {
    blocks.push({
      stream: 'node_twap_statuses_by_block',
      ...header(time),
      events: twaps.map(({ twapId, state, status, description }, index) => ({
        index,
        time: iso(time),
        timeMs: time,
        twapId,
        state,
        status,
        description,
      })),
    });
  }

  return blocks.sort((a, b) => a.blockNumber - b.blockNumber || STREAM_ORDER[a.stream] - STREAM_ORDER[b.stream]);
}
