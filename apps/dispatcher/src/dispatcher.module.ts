import { Module } from '@nestjs/common';
import { AlertsDeliveryModule } from '#alerts';
import { DatabaseModule } from '#database';
import { RuntimeModule } from '#runtime';
import { DeliveryWorker } from './delivery.worker.js';

/** BullMQ workers that sign and POST webhook deliveries, record every attempt, retry and suspend. */
@Module({
  imports: [RuntimeModule.forApp('dispatcher'), DatabaseModule, AlertsDeliveryModule],
  providers: [DeliveryWorker],
})
export class DispatcherModule {}
