import { Module } from '@nestjs/common';
import { EndpointTargetRepository } from './endpoint-target.repository.js';
import { TestDeliveryService } from './test-delivery.service.js';

/** The `alerts test-endpoint` command's one service; needs the database and the config, nothing of the queue. */
@Module({
  providers: [EndpointTargetRepository, TestDeliveryService],
  exports: [TestDeliveryService],
})
export class TestDeliveryModule {}
