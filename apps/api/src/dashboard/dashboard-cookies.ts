import type { CookieOptions, Request, Response } from 'express';
import { parse } from 'cookie';
import { SESSION_TTL_SECONDS } from '#auth';

export const SESSION_COOKIE = 'tw_session';
export const CSRF_COOKIE = 'tw_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** Out of reach of page scripts; Secure whenever the request came over HTTPS. */
const base = (req: Request): CookieOptions => ({ httpOnly: true, path: '/', secure: req.secure });

export function cookieOf(req: Request, name: string): string | undefined {
  return req.headers.cookie ? parse(req.headers.cookie)[name] : undefined;
}

export function setSessionCookie(req: Request, res: Response, token: string): void {
  res.cookie(SESSION_COOKIE, token, { ...base(req), sameSite: 'lax', maxAge: SESSION_TTL_SECONDS * 1000 });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, { ...base(req), sameSite: 'lax' });
}

/** The CSRF secret lives as long as the browser session; no other site can read or send it (SameSite=Strict). */
export function setCsrfCookie(req: Request, res: Response, token: string): void {
  res.cookie(CSRF_COOKIE, token, { ...base(req), sameSite: 'strict' });
}
