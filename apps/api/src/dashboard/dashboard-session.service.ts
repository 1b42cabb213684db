import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import { DashboardAccountService } from '#auth';
import { cookieOf, CSRF_COOKIE, SESSION_COOKIE, setCsrfCookie } from './dashboard-cookies.js';

/** What the dashboard learns when it loads: who is signed in, and the CSRF token its requests must carry. */
@Injectable()
export class DashboardSessionService {
  constructor(private readonly accounts: DashboardAccountService) {}

  async describe(req: Request, res: Response) {
    let csrfToken = cookieOf(req, CSRF_COOKIE);
    if (!csrfToken) {
      csrfToken = randomBytes(32).toString('base64url');
      setCsrfCookie(req, res, csrfToken);
    }
    const account = await this.accounts.sessionOf(cookieOf(req, SESSION_COOKIE));
    return { account: account && { email: account.email, plan: account.plan }, csrfToken };
  }
}
