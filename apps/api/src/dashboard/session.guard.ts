import { CanActivate, createParamDecorator, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import type { Request } from 'express';
import { DashboardAccountService, type SessionAccount } from '#auth';
import { cookieOf, SESSION_COOKIE } from './dashboard-cookies.js';

type SignedInRequest = Request & { dashboardAccount?: SessionAccount };

/** Admits a request whose session cookie names a live session, and keeps the account for the route. */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(private readonly accounts: DashboardAccountService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<SignedInRequest>();
    const account = await this.accounts.sessionOf(cookieOf(req, SESSION_COOKIE));
    if (!account) throw new UnauthorizedException();
    req.dashboardAccount = account;
    return true;
  }
}

export const SignedInAccount = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<SignedInRequest>().dashboardAccount!,
);
