import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { QuotaExceededException } from '../quota/quota-exceeded.exception.js';
import { RateDecision, RateLimiterService } from '../quota/rate-limiter.service.js';
import { SpendResult, UsageMeterService } from '../quota/usage-meter.service.js';
import { BearerAuthGuard } from './bearer-auth.guard.js';
import { Principal, PrincipalHolder, principalOf } from './principal.js';
import { PublicRoutes } from './public-routes.js';

/**
 * The one global guard, in this order: who is calling (bearer token), their plan's rate limit,
 * then one of their usage tokens. A request refused at a step costs nothing at the later ones.
 *
 * Every step answers synchronously when it can (a cached token, a counter far from its limit), so
 * the common request awaits nothing here.
 */
@Injectable()
export class ApiAccessGuard implements CanActivate {
  constructor(
    private readonly publicRoutes: PublicRoutes,
    private readonly bearer: BearerAuthGuard,
    private readonly limiter: RateLimiterService,
    private readonly meter: UsageMeterService,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.publicRoutes.isPublic(context)) return true;
    const authenticated = this.bearer.authenticate(context);
    if (authenticated === true) return this.admit(context);
    return authenticated.then(() => this.admit(context));
  }

  private admit(context: ExecutionContext): boolean | Promise<boolean> {
    const res = context.getArgByIndex<Response & PrincipalHolder>(1);
    const user = principalOf(res)!;
    const decision = this.limiter.hit(user.consumerId, user.limits.requestsPerMinute);
    if (decision instanceof Promise) return decision.then((d) => this.spendAfterRateLimit(d, user, res));
    return this.spendAfterRateLimit(decision, user, res);
  }

  /** Sets X-RateLimit-Limit/Remaining/Reset (Reset as a Unix timestamp) on every authenticated response. */
  private spendAfterRateLimit(decision: RateDecision, user: Principal, res: Response): boolean | Promise<boolean> {
    const limit = user.limits.requestsPerMinute;
    res.setHeader('X-RateLimit-Limit', limit);
    res.setHeader('X-RateLimit-Remaining', Math.max(0, limit - decision.count));
    res.setHeader('X-RateLimit-Reset', Math.ceil(decision.windowEnd / 1000));
    if (!decision.allowed) {
      const retryAfter = Math.max(1, Math.ceil((decision.windowEnd - Date.now()) / 1000));
      res.setHeader('Retry-After', retryAfter);
      throw new QuotaExceededException(
        'rate_limit_exceeded',
        `Rate limit of ${limit} requests per minute exceeded; retry after ${retryAfter} s or upgrade your plan.`,
        retryAfter,
      );
    }
    const spent = this.meter.spend(user.limits);
    if (spent instanceof Promise) return spent.then((result) => this.checkSpent(result, user, res));
    return this.checkSpent(spent, user, res);
  }

  private checkSpent({ allowed, period }: SpendResult, user: Principal, res: Response): boolean {
    if (allowed) return true;
    const retryAfter = Math.max(1, Math.ceil((period.end.getTime() - Date.now()) / 1000));
    res.setHeader('Retry-After', retryAfter);
    throw new QuotaExceededException(
      'usage_limit_exceeded',
      `All ${user.limits.usageLimit} usage tokens of this ${user.limits.plan.usagePeriod} are spent; they reset at ${period.end.toISOString()}.`,
      retryAfter,
    );
  }
}
