import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiAccessGuard, ApiAuthModule } from '#auth';
import { DatabaseModule } from '#database';
import { MarketReadModule } from '#market';
import { RuntimeModule } from '#runtime';
import { RequestObserver } from './http/request-observer.js';
import { HealthController } from './operations/health.controller.js';
import { MetricsController } from './operations/metrics.controller.js';
import { SegmentsController } from './segments/segments.controller.js';
import { StateStatusController } from './state-status/state-status.controller.js';
import { UsageController } from './usage/usage.controller.js';

@Module({
  imports: [RuntimeModule.forApp('api'), DatabaseModule, ApiAuthModule, MarketReadModule],
  controllers: [SegmentsController, StateStatusController, UsageController, HealthController, MetricsController],
  providers: [RequestObserver, { provide: APP_GUARD, useExisting: ApiAccessGuard }],
})
export class ApiModule {}
