import { Module } from '@nestjs/common';
import { MarketWriteModule } from '#market';
import { DeliveryQueue } from '../queue/delivery.queue.js';
import { AlertRulesRepository } from '../admin/rules/alert-rules.repository.js';
import { AlertsOutboxStep } from './alerts-outbox.step.js';
import { DeliveryOutboxRepository } from './delivery-outbox.repository.js';
import { PriceMarketsRepository } from './price-markets.repository.js';
import { RuleIndexCache } from './rule-index.cache.js';
import { StateUpdatedOutboxStep } from './state-updated-outbox.step.js';

/** The ingestor's part of the alerts: the matcher steps registered with the facts and state writers. */
@Module({
  imports: [MarketWriteModule],
  providers: [
    AlertRulesRepository,
    RuleIndexCache,
    DeliveryOutboxRepository,
    PriceMarketsRepository,
    DeliveryQueue,
    AlertsOutboxStep,
    StateUpdatedOutboxStep,
  ],
})
export class AlertsOutboxModule {}
