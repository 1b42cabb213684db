import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { AfterCommitHook, SqlRunner, TransactionStep } from '#database';
import { MarketStateWriter, type AppliedStateUpdate } from '#market';
import { matchStateUpdate } from '../matching/index.js';
import { DeliveryQueue } from '../queue/delivery.queue.js';
import { DeliveryOutboxRepository } from './delivery-outbox.repository.js';
import { RuleIndexCache } from './rule-index.cache.js';
import { WrittenDeliveries } from './written-deliveries.js';

/** `state_updated` deliveries, written with the state update they announce and enqueued after its commit. */
@Injectable()
export class StateUpdatedOutboxStep implements TransactionStep<AppliedStateUpdate>, AfterCommitHook<AppliedStateUpdate>, OnModuleInit {
  readonly name = 'alerts-state-updated';
  private readonly written: WrittenDeliveries<AppliedStateUpdate>;

  constructor(
    private readonly state: MarketStateWriter,
    private readonly rules: RuleIndexCache,
    private readonly outbox: DeliveryOutboxRepository,
    queue: DeliveryQueue,
  ) {
    this.written = new WrittenDeliveries(queue, new Logger(StateUpdatedOutboxStep.name));
  }

  onModuleInit(): void {
    this.state.steps.register(this);
    this.state.steps.registerAfterCommit(this);
  }

  async run(q: SqlRunner, update: AppliedStateUpdate): Promise<void> {
    const index = await this.rules.current(q);
    if (index.size === 0) return;
    const deliveries = matchStateUpdate(index, { height: update.state.height, stateTimeMs: update.state.timeMs });
    this.written.remember(update, await this.outbox.insert(q, deliveries));
  }

  afterCommit(update: AppliedStateUpdate): Promise<void> {
    return this.written.enqueue(update);
  }
}
