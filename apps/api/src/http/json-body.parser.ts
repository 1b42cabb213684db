import express from 'express';
import type { NextFunction, Request, Response } from 'express';

/**
 * How deep a request body may nest (the top-level object or array is level 1). The deepest body the api
 * takes is an alert rule's `filters.amount.gte` (3 levels); 8 leaves room for new fields while keeping
 * the recursive validation (class-transformer, class-validator) off bodies built to exhaust the stack.
 */
export const MAX_BODY_DEPTH = 8;

/**
 * The api takes JSON bodies only. Nest's default registers express's json and urlencoded parsers
 * for every request; on a GET each of them still checks whether the request is finished, reads
 * its headers and adds `req.body`. Here one layer skips GET and HEAD (whose bodies have no meaning)
 * and hands every other request to the json parser, then refuses a body nested past MAX_BODY_DEPTH
 * before any validation sees it.
 */
export function jsonBodyParser(options: { limit: string }) {
  const json = express.json({ limit: options.limit });
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    json(req, res, (error?: unknown) => {
      if (error !== undefined) return next(error);
      if (nestsDeeperThan(req.body, MAX_BODY_DEPTH)) return next(new BodyTooDeepError());
      next();
    });
  };
}

/** Shaped like express's own body errors (status, expose), so the exception filter answers it as a 400. */
class BodyTooDeepError extends Error {
  readonly status = 400;
  readonly expose = true;
  constructor() {
    super(`Request body nests deeper than ${MAX_BODY_DEPTH} levels of objects and arrays`);
  }
}

/** Iterative, so a body of 100 KB of `[` cannot overflow the stack here either. */
function nestsDeeperThan(body: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[body, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(value)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}
