import { Module } from '@nestjs/common';
import { AccountsModule } from '#auth';
import { AppConfig } from '#config';
import { DeliveryQueue } from '../queue/delivery.queue.js';
import { WebhookSender, webhookSenderFor } from '../webhook/index.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { DeliveryRetention } from './delivery-retention.js';
import { DeliveryRetentionRepository } from './delivery-retention.repository.js';
import { DeliveryRows } from './delivery-rows.js';
import { DeliveryProcessor } from './delivery.processor.js';
import { DeliveryReconciler } from './delivery.reconciler.js';
import { EndpointSlots } from './endpoint-slots.js';
import { UsageChargesFlusher } from './usage-charges.flusher.js';

/** What the dispatcher runs: one attempt of a delivery, the usage charges, the reconciler, the retention pass. */
@Module({
  imports: [AccountsModule],
  providers: [
    DeliveriesRepository,
    DeliveryRows,
    EndpointSlots,
    DeliveryQueue,
    DeliveryProcessor,
    DeliveryReconciler,
    DeliveryRetentionRepository,
    DeliveryRetention,
    UsageChargesFlusher,
    { provide: WebhookSender, inject: [AppConfig], useFactory: webhookSenderFor },
  ],
  exports: [DeliveryProcessor, DeliveryReconciler, DeliveryRetention, UsageChargesFlusher, DeliveryQueue],
})
export class AlertsDeliveryModule {}
