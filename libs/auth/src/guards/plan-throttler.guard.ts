import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { ThrottlerRequest } from '@nestjs/throttler';
import { QuotaExceededException } from '../quota/quota-exceeded.exception.js';
import { ThrottlerRecord } from '../quota/redis-throttler.storage.js';
import { IS_PUBLIC } from './public.decorator.js';

/**
 * The plan's requests-per-minute limit, per consumer. Replaces the stock header handling because
 * X-RateLimit-Reset is a Unix timestamp here and the 429 body is DESIGN.md's.
 */
@Injectable()
export class PlanThrottlerGuard extends ThrottlerGuard {
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]) === true;
  }

  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, getTracker, generateKey } = props;
    const { req, res } = this.getRequestResponse(context);
    const key = generateKey(context, await getTracker(req, context), throttler.name ?? 'default');
    const record = (await this.storageService.increment(key, ttl, limit, ttl, throttler.name ?? 'default')) as ThrottlerRecord;
    const headers = res as { setHeader(name: string, value: string | number): void };
    headers.setHeader('X-RateLimit-Limit', limit);
    headers.setHeader('X-RateLimit-Remaining', Math.max(0, limit - record.totalHits));
    headers.setHeader('X-RateLimit-Reset', Math.ceil(record.windowEnd / 1000));
    if (record.isBlocked) {
      headers.setHeader('Retry-After', record.timeToBlockExpire);
      throw new QuotaExceededException(
        'rate_limit_exceeded',
        `Rate limit of ${limit} requests per minute exceeded; retry after ${record.timeToBlockExpire} s or upgrade your plan.`,
        record.timeToBlockExpire,
      );
    }
    return true;
  }
}
