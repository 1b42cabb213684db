import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiAccessGuard, ApiAuthModule } from '../../../libs/auth/src/index.js';
import { DatabaseModule } from '../../../libs/database/src/index.js';
import { MarketModule } from '../../../libs/market/src/index.js';
import { RuntimeModule } from '../../../libs/runtime/src/index.js';
import { HealthController } from './controllers/health.controller.js';
import { MetricsController } from './controllers/metrics.controller.js';
import { SegmentsController } from './controllers/segments.controller.js';
import { StateStatusController } from './controllers/state-status.controller.js';
import { UsageController } from './controllers/usage.controller.js';
import { RequestObserver } from './http/request-observer.js';

@Module({
  imports: [RuntimeModule.forApp('api'), DatabaseModule, ApiAuthModule, MarketModule],
  controllers: [SegmentsController, StateStatusController, UsageController, HealthController, MetricsController],
  providers: [RequestObserver, { provide: APP_GUARD, useExisting: ApiAccessGuard }],
})
export class ApiModule {}
