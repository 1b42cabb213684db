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
import { WsTicketService } from './tokens/ws-ticket.service.js';

/** Request-path authentication and quotas for the api: bearer JWT, plan rate limit, usage tokens; websocket tickets. */
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
    WsTicketService,
  ],
  exports: [AccountsModule, ApiAccessGuard, BearerAuthGuard, RateLimiterService, WsTicketService, TokenUseRecorder],
})
export class ApiAuthModule {}
