import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { ThrottlerModule } from '@nestjs/throttler';
import { AccountsModule } from './accounts.module.js';
import { AuthenticatedRequest } from './guards/principal.js';
import { JwtStrategy } from './guards/jwt.strategy.js';
import { BearerAuthGuard } from './guards/bearer-auth.guard.js';
import { PlanThrottlerGuard } from './guards/plan-throttler.guard.js';
import { UsageGuard } from './guards/usage.guard.js';
import { RATE_WINDOW_MS } from './consumers/plans.js';
import { RedisThrottlerStorage } from './quota/redis-throttler.storage.js';
import { ThrottlerStorageModule } from './quota/throttler-storage.module.js';
import { RevokedTokensService } from './tokens/revoked-tokens.service.js';

/** Request-path authentication and quotas for the api: bearer JWT, plan rate limit, usage tokens. */
@Module({
  imports: [
    AccountsModule,
    PassportModule,
    ThrottlerModule.forRootAsync({
      imports: [ThrottlerStorageModule],
      inject: [RedisThrottlerStorage],
      useFactory: (storage: RedisThrottlerStorage) => ({
        storage,
        throttlers: [
          {
            name: 'default',
            ttl: RATE_WINDOW_MS,
            limit: (context) => context.switchToHttp().getRequest<AuthenticatedRequest>().user.limits.requestsPerMinute,
          },
        ],
        // One budget per consumer across all routes and all of its tokens.
        getTracker: (req) => String((req as AuthenticatedRequest).user.consumerId),
        generateKey: (_context, tracker) => tracker,
      }),
    }),
  ],
  providers: [RevokedTokensService, JwtStrategy, BearerAuthGuard, PlanThrottlerGuard, UsageGuard],
  exports: [AccountsModule, BearerAuthGuard, PlanThrottlerGuard, UsageGuard],
})
export class ApiAuthModule {}
