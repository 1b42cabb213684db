import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AccountsModule } from './accounts.module.js';
import { ApiAccessGuard } from './guards/api-access.guard.js';
import { BearerAuthGuard } from './guards/bearer-auth.guard.js';
import { JwtStrategy } from './guards/jwt.strategy.js';
import { PublicRoutes } from './guards/public-routes.js';
import { RateLimiterService } from './quota/rate-limiter.service.js';
import { RevokedTokensService } from './tokens/revoked-tokens.service.js';
import { TokenUseRecorder } from './tokens/token-use.recorder.js';
import { VerifiedTokenCache } from './tokens/verified-token.cache.js';

/** Request-path authentication and quotas for the api: bearer JWT, plan rate limit, usage tokens. */
@Module({
  imports: [AccountsModule, PassportModule],
  providers: [
    PublicRoutes,
    RevokedTokensService,
    VerifiedTokenCache,
    TokenUseRecorder,
    JwtStrategy,
    RateLimiterService,
    BearerAuthGuard,
    ApiAccessGuard,
  ],
  exports: [AccountsModule, ApiAccessGuard, TokenUseRecorder],
})
export class ApiAuthModule {}
