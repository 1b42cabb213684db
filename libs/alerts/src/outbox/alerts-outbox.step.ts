import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { AfterCommitHook, SqlRunner, TransactionStep } from '#database';
import { ExchangeFactsWriter, HYPERLIQUID_SOURCE, type FactsBatch } from '#market';
import { matchBatch, matchInputFromBlocks } from '../matching/index.js';
import { DeliveryQueue } from '../queue/delivery.queue.js';
import { DeliveryOutboxRepository } from './delivery-outbox.repository.js';
import { PriceMarketsRepository } from './price-markets.repository.js';
import { RuleIndexCache } from './rule-index.cache.js';
import { WrittenDeliveries } from './written-deliveries.js';

/**
 * The alert matcher inside the facts transaction: the deliveries a batch (of blocks, or of the public-API
 * feed's mid ticks) matches are stored with its facts (a crash keeps both or neither), then enqueued once
 * they are committed.
 */
@Injectable()
export class AlertsOutboxStep implements TransactionStep<FactsBatch>, AfterCommitHook<FactsBatch>, OnModuleInit {
  readonly name = 'alerts-outbox';
  private readonly written: WrittenDeliveries<FactsBatch>;
  /** Markets a batch stored in alert_price_markets, known to this process once it commits. */
  private readonly freshMarkets = new WeakMap<FactsBatch, string[]>();

  constructor(
    private readonly facts: ExchangeFactsWriter,
    private readonly rules: RuleIndexCache,
    private readonly outbox: DeliveryOutboxRepository,
    queue: DeliveryQueue,
    private readonly priceMarkets: PriceMarketsRepository,
  ) {
    this.written = new WrittenDeliveries(queue, new Logger(AlertsOutboxStep.name));
  }

  onModuleInit(): void {
    this.facts.steps.register(this);
    this.facts.steps.registerAfterCommit(this);
  }

  async run(q: SqlRunner, batch: FactsBatch): Promise<void> {
    if (batch.source === HYPERLIQUID_SOURCE && batch.midTicks.length > 0) {
      const fresh = await this.priceMarkets.remember(
        q,
        batch.midTicks.map((t) => t.coin),
      );
      if (fresh.length > 0) this.freshMarkets.set(batch, fresh);
    }
    const index = await this.rules.current(q);
    if (index.size === 0 || (batch.blocks.length === 0 && batch.midTicks.length === 0)) return;
    const input = matchInputFromBlocks(batch.blocks, batch.previousPrices);
    // The public-API feed's fills are a few wallets' only: its price ticks are the markets' mids, written as
    // batches of their own (ExchangeFactsWriter.writeMidTicks). A mid has no block: the read time keeps the
    // ticks (and their delivery ids) apart.
    if (batch.source === HYPERLIQUID_SOURCE) {
      input.ticks = batch.midTicks.map(({ coin, px, timeMs, previous }) => ({ market: coin, px, timeMs, blockNumber: 0, previous }));
    }
    const deliveries = matchBatch(index, input);
    this.written.remember(batch, await this.outbox.insert(q, deliveries));
  }

  afterCommit(batch: FactsBatch): Promise<void> {
    const fresh = this.freshMarkets.get(batch);
    if (fresh) this.priceMarkets.committed(fresh);
    return this.written.enqueue(batch);
  }
}
