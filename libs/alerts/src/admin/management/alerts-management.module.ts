import { Module } from '@nestjs/common';
import { ConsumerRepository } from '#auth';
import { DeliveryQueue } from '../../queue/delivery.queue.js';
import { AlertRulesRepository } from '../rules/alert-rules.repository.js';
import { KnownMarketsRepository } from '../rules/known-markets.repository.js';
import { AlertRulesService } from './alert-rules.service.js';
import { DeliveryLogRepository } from './delivery-log.repository.js';
import { DeliveryLogService } from './delivery-log.service.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';

/** What the api's `/events` routes call. Needs a DataSource and the KeysetCursorCodec (DatabaseModule's). */
@Module({
  providers: [
    ConsumerRepository,
    AlertRulesRepository,
    KnownMarketsRepository,
    WebhookEndpointsRepository,
    DeliveryLogRepository,
    DeliveryQueue,
    WebhookEndpointsService,
    AlertRulesService,
    DeliveryLogService,
  ],
  exports: [WebhookEndpointsService, AlertRulesService, DeliveryLogService],
})
export class AlertsManagementModule {}
