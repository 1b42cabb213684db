import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isSpotCoin, matchBatch, type PricePoint, type PriceTick } from '../matching/index.js';
import { DeliveryQueue } from '../queue/delivery.queue.js';
import { DeliveryOutboxRepository } from './delivery-outbox.repository.js';
import { RuleIndexCache } from './rule-index.cache.js';

/**
 * Price ticks of the public-API feed (EXCHANGE_SOURCE=hyperliquid). Its fills are only the tracked
 * wallets', which say little about a market's price, so there each `allMids` answer is the tick: one
 * per perpetual market whose mid moved since the previous answer, matched against the price rules and
 * written to the outbox in one transaction, enqueued after the commit.
 *
 * The previous mid is this process's own: after a restart the first answer is a baseline, and a
 * crossing that happened while the ingestor was down is not reported (a late alert for an old crossing
 * would mislead more than none).
 */
@Injectable()
export class MidPricesOutbox {
  private readonly logger = new Logger(MidPricesOutbox.name);
  private readonly last = new Map<string, PricePoint>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly rules: RuleIndexCache,
    private readonly outbox: DeliveryOutboxRepository,
    private readonly queue: DeliveryQueue,
  ) {}

  /** Takes one `allMids` answer, read at `timeMs`; returns how many deliveries it stored. */
  async record(mids: Readonly<Record<string, string>>, timeMs: number): Promise<number> {
    const ticks: PriceTick[] = [];
    for (const [market, px] of Object.entries(mids)) {
      if (isSpotCoin(market)) continue;
      const previous = this.last.get(market);
      // A mid has no block: the answer's time keeps the ticks (and their delivery ids) apart.
      if (previous && previous.px !== px) ticks.push({ market, px, timeMs, blockNumber: 0, previous });
    }
    const written = ticks.length
      ? await this.dataSource.transaction(async (q) =>
          this.outbox.insert(q, matchBatch(await this.rules.current(q), { fillBlocks: [], ticks, twapStatuses: [], ledger: [] })),
        )
      : [];
    // Only a stored answer moves the baseline: after a failed write the next answer is compared with the last stored one.
    for (const [market, px] of Object.entries(mids)) if (!isSpotCoin(market)) this.last.set(market, { px, timeMs });
    await this.queue.enqueue(written).catch((error: Error) => {
      this.logger.warn(`${written.length} deliveries stored but not enqueued (the reconciler will): ${error.message}`);
    });
    return written.length;
  }
}
