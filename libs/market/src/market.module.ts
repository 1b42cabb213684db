import { Module } from '@nestjs/common';
import { SegmentsService } from './segments/segments.service.js';
import { StateStatusRepository } from './state-status/state-status.repository.js';
import { StateStatusService } from './state-status/state-status.service.js';

@Module({
  providers: [SegmentsService, StateStatusRepository, StateStatusService],
  exports: [SegmentsService, StateStatusService],
})
export class MarketModule {}
