import { CanActivate, ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { cookieOf, CSRF_COOKIE, CSRF_HEADER } from './dashboard-cookies.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Double-submit CSRF check on every state-changing dashboard request: the X-CSRF-Token header must equal
 * the httpOnly tw_csrf cookie. Another site can make the browser send the cookie, but it can neither read
 * the token (the session route hands it only to same-origin scripts) nor set the header without a CORS
 * preflight the api never grants.
 */
@Injectable()
export class CsrfGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    if (SAFE_METHODS.has(req.method)) return true;
    const cookie = Buffer.from(cookieOf(req, CSRF_COOKIE) ?? '');
    const header = Buffer.from(req.header(CSRF_HEADER) ?? '');
    if (cookie.length === 0 || cookie.length !== header.length || !timingSafeEqual(cookie, header))
      throw new ForbiddenException('CSRF token missing or wrong: reload the page and try again');
    return true;
  }
}
