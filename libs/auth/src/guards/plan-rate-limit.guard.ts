import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { QuotaExceededException } from '../quota/quota-exceeded.exception.js';
import { RateLimiterService } from '../quota/rate-limiter.service.js';
import { AuthenticatedRequest } from './principal.js';
import { IS_PUBLIC } from './public.decorator.js';

/**
 * The plan's requests-per-minute limit, one budget per consumer across its tokens and all routes.
 * Sets X-RateLimit-Limit/Remaining/Reset (Reset as a Unix timestamp) on every authenticated response.
 */
@Injectable()
export class PlanRateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiterService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const http = context.switchToHttp();
    const { user } = http.getRequest<AuthenticatedRequest>();
    const res = http.getResponse<Response>();
    const limit = user.limits.requestsPerMinute;
    const hit = this.limiter.hit(user.consumerId, limit);
    const decision = hit instanceof Promise ? await hit : hit;
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
