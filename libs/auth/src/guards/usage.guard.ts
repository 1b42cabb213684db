import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { QuotaExceededException } from '../quota/quota-exceeded.exception.js';
import { UsageMeterService } from '../quota/usage-meter.service.js';
import { AuthenticatedRequest } from './principal.js';
import { IS_PUBLIC } from './public.decorator.js';

/** Spends one usage token per authenticated request; none left means 429 until the period resets. */
@Injectable()
export class UsageGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly meter: UsageMeterService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const { user } = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const spent = this.meter.spend(user.limits);
    const { allowed, period } = spent instanceof Promise ? await spent : spent;
    if (allowed) return true;
    const retryAfter = Math.max(1, Math.ceil((period.end.getTime() - Date.now()) / 1000));
    context.switchToHttp().getResponse<{ setHeader(n: string, v: number): void }>().setHeader('Retry-After', retryAfter);
    throw new QuotaExceededException(
      'usage_limit_exceeded',
      `All ${user.limits.usageLimit} usage tokens of this ${user.limits.plan.usagePeriod} are spent; they reset at ${period.end.toISOString()}.`,
      retryAfter,
    );
  }
}
