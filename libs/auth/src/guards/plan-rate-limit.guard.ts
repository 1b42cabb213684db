import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { QuotaExceededException } from '../quota/quota-exceeded.exception.js';
import { RateDecision, RateLimiterService } from '../quota/rate-limiter.service.js';
import { AuthenticatedRequest } from './principal.js';
import { PublicRoutes } from './public-routes.js';

/**
 * The plan's requests-per-minute limit, one budget per consumer across its tokens and all routes.
 * Sets X-RateLimit-Limit/Remaining/Reset (Reset as a Unix timestamp) on every authenticated response.
 */
@Injectable()
export class PlanRateLimitGuard implements CanActivate {
  constructor(
    private readonly publicRoutes: PublicRoutes,
    private readonly limiter: RateLimiterService,
  ) {}

  /** Answers synchronously when the limiter does, so a request far from its limit awaits nothing. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.publicRoutes.isPublic(context)) return true;
    const { user } = context.getArgByIndex<AuthenticatedRequest>(0);
    const res = context.getArgByIndex<Response>(1);
    const decision = this.limiter.hit(user.consumerId, user.limits.requestsPerMinute);
    if (decision instanceof Promise) return decision.then((d) => this.apply(d, user.limits.requestsPerMinute, res));
    return this.apply(decision, user.limits.requestsPerMinute, res);
  }

  private apply(decision: RateDecision, limit: number, res: Response): boolean {
    res.setHeader('X-RateLimit-Limit', limit);
    res.setHeader('X-RateLimit-Remaining', Math.max(0, limit - decision.count));
    res.setHeader('X-RateLimit-Reset', Math.ceil(decision.windowEnd / 1000));
    if (decision.allowed) return true;
    const retryAfter = Math.max(1, Math.ceil((decision.windowEnd - Date.now()) / 1000));
    res.setHeader('Retry-After', retryAfter);
    throw new QuotaExceededException(
      'rate_limit_exceeded',
      `Rate limit of ${limit} requests per minute exceeded; retry after ${retryAfter} s or upgrade your plan.`,
      retryAfter,
    );
  }
}
