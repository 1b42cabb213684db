import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { QuotaExceededException } from '../quota/quota-exceeded.exception.js';
import { SpendResult, UsageMeterService } from '../quota/usage-meter.service.js';
import { AuthenticatedRequest } from './principal.js';
import { PublicRoutes } from './public-routes.js';

/** Spends one usage token per authenticated request; none left means 429 until the period resets. */
@Injectable()
export class UsageGuard implements CanActivate {
  constructor(
    private readonly publicRoutes: PublicRoutes,
    private readonly meter: UsageMeterService,
  ) {}

  /** Answers synchronously when the meter does, so a request with tokens left awaits nothing. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.publicRoutes.isPublic(context)) return true;
    const spent = this.meter.spend(context.getArgByIndex<AuthenticatedRequest>(0).user.limits);
    if (spent instanceof Promise) return spent.then((result) => this.apply(result, context));
    return this.apply(spent, context);
  }

  private apply({ allowed, period }: SpendResult, context: ExecutionContext): boolean {
    if (allowed) return true;
    const { user } = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const retryAfter = Math.max(1, Math.ceil((period.end.getTime() - Date.now()) / 1000));
    context.switchToHttp().getResponse<{ setHeader(n: string, v: number): void }>().setHeader('Retry-After', retryAfter);
    throw new QuotaExceededException(
      'usage_limit_exceeded',
      `All ${user.limits.usageLimit} usage tokens of this ${user.limits.plan.usagePeriod} are spent; they reset at ${period.end.toISOString()}.`,
      retryAfter,
    );
  }
}
