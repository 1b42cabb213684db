import { Injectable } from '@nestjs/common';
import type { NodeBlock } from '#exchange';
import type { BlockMark, OrderBlock } from './open-order.types.js';
import { BookedOrderKeys } from './booked-order-keys.js';
import { OpenOrderSnapshotsRepository } from './open-order-snapshots.repository.js';
import { OpenOrdersRepository } from './open-orders.repository.js';
import { orderBlock } from './order-blocks.js';
import { OrderBacklogRepository } from './order-backlog.repository.js';
import { foldOrderBlocks } from './order-book.fold.js';
import { OrderFeedProgressRepository, type OrderFeedProgress } from './order-feed-progress.repository.js';
import { boundaryAfter, boundaryAtOrBefore, SNAPSHOT_INTERVAL_MS } from './snapshot-grid.js';
import { type SqlRunner } from '#database';

/**
 * Moves the open-order book with the order-status and fills blocks of a batch and takes the 5-minute
 * snapshots their exchange time passes, inside the caller's transaction (libs/market/src/orders/README.md).
 *
 * The two streams are read independently, so a batch may carry one further than the other. A block is
 * applied only once both streams have reached it (the lower of the two stream positions); blocks beyond
 * wait in the backlog. A snapshot at T is taken once that position has reached T, so it holds exactly the
 * blocks before T.
 */
@Injectable()
export class OpenOrdersWriter {
  constructor(
    private readonly book: OpenOrdersRepository,
    private readonly snapshots: OpenOrderSnapshotsRepository,
    private readonly progress: OrderFeedProgressRepository,
    private readonly backlog: OrderBacklogRepository,
    private readonly bookedKeys: BookedOrderKeys,
  ) {}

  /** Blocks of one source in feed order; blocks of a stream at or below its last seen block are ignored. */
  async write(q: SqlRunner, source: string, blocks: NodeBlock[]): Promise<void> {
    const statuses = blocks.some((b) => b.stream === 'node_order_statuses_by_block');
    if (!statuses && !blocks.some((b) => b.stream === 'node_fills_by_block')) return;
    const { progress: stored, rowVersion } = await this.progress.lock(q, source);
    // Until a source has sent an order status there is no book its fills could reduce (the public API
    // sends fills only).
    if (stored === null && !statuses) return;
    const progress: OrderFeedProgress = stored ?? { statuses: null, fills: null, applied: null };
    const fresh: OrderBlock[] = [];
    for (const block of blocks) {
      const part = orderBlock(block);
      if (part === null) continue;
      const stream = part.stream === 'node_order_statuses_by_block' ? 'statuses' : 'fills';
      if ((progress[stream]?.block ?? -1) >= part.blockNumber) continue;
      progress[stream] = { block: part.blockNumber, timeMs: part.timeMs };
      fresh.push(part);
    }
    if (progress.statuses === null || fresh.length === 0) return;

    const reached = progress.fills === null || progress.statuses.block <= progress.fills.block ? progress.statuses : progress.fills;
    // A stream that starts late delivers blocks below what is already applied: they are applied at once.
    const applied: BlockMark = progress.applied !== null && progress.applied.block > reached.block ? progress.applied : reached;
    const waiting = fresh.filter((b) => b.blockNumber > applied.block);
    await this.backlog.put(q, source, waiting);
    const ready = [...(await this.backlog.takeUpTo(q, source, applied.block)), ...fresh.filter((b) => b.blockNumber <= applied.block)];
    ready.sort((a, b) => a.blockNumber - b.blockNumber);

    const booked = await this.bookedKeys.begin(q, rowVersion);
    const latest = await this.snapshots.latestSnapshot(q);
    const start = progress.applied?.timeMs ?? ready[0]?.timeMs ?? applied.timeMs;
    // The next snapshot to take: every change applied before it is tagged with it.
    let next = latest !== null ? Date.parse(latest.snapshotTs) + SNAPSHOT_INTERVAL_MS : boundaryAfter(start);
    let height = progress.applied?.block ?? latest?.height ?? null;
    let done = 0;
    let unchanged = false;
    /** The newest snapshot this call takes: retention follows it once they are all taken. */
    let newest: number | null = null;
    while (next <= applied.timeMs) {
      let end = done;
      while (end < ready.length && ready[end]!.timeMs < next) end++;
      if (end > done) {
        await this.book.apply(q, foldOrderBlocks(ready.slice(done, end)).values(), next, booked);
        height = Math.max(height ?? 0, ready[end - 1]!.blockNumber);
        done = end;
      } else if (unchanged) {
        // Nothing happened since the last snapshot: every boundary up to the next block repeats it.
        const last = boundaryAtOrBefore(Math.min(applied.timeMs, ready[done]?.timeMs ?? Infinity));
        await this.snapshots.repeatLatest(q, next, last);
        newest = last;
        next = last + SNAPSHOT_INTERVAL_MS;
        continue;
      }
      if (height === null) throw new Error(`open orders: snapshot ${new Date(next).toISOString()} before any applied block`);
      await this.snapshots.take(q, next, height);
      newest = next;
      unchanged = true;
      next += SNAPSHOT_INTERVAL_MS;
    }
    if (newest !== null) await this.snapshots.dropExpired(q, newest);
    if (done < ready.length) await this.book.apply(q, foldOrderBlocks(ready.slice(done)).values(), next, booked);

    progress.applied = applied;
    this.bookedKeys.wrote(await this.progress.save(q, source, progress));
  }
}
