import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { principalOf } from '../../../../libs/auth/src/index.js';
import type { Principal } from '../../../../libs/auth/src/index.js';
import { JsonLogger, Metrics } from '../../../../libs/runtime/src/index.js';

/** Per-request values, kept in express's `res.locals`. */
interface RequestContext {
  requestId: string;
  startedAt: number;
  principal?: Principal;
}

type ContextResponse = Response & { locals: RequestContext; req: Request };

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of the request this response answers (set by `requestContext`). */
export function requestIdOf(res: Response): string | undefined {
  return (res as ContextResponse).locals?.requestId;
}

/**
 * Gives every request an id (the caller's X-Request-Id when it is sane), echoes it on the response,
 * and on finish writes one access-log line and the request metrics.
 *
 * This runs on every request, so it is frugal: one shared finish listener, plain-number metrics, the
 * log line written as a template, and its values in `res.locals` rather than new properties on the
 * request and response objects (which would give them new shapes and slow every later property read).
 */
export function requestContext(logger: JsonLogger, metrics: Metrics) {
  const logAccess = logger.enabled('info');

  function onFinish(this: ContextResponse): void {
    const req = this.req;
    const context = this.locals;
    const seconds = (performance.now() - context.startedAt) / 1000;
    const route = (req.route?.path as string | undefined) ?? 'unmatched';
    metrics.http.record(req.method, route, this.statusCode, seconds);
    if (logAccess) {
      const caller = principalOf(this);
      logger.writeRaw(
        `"msg":"request","requestId":"${context.requestId}","method":"${req.method}","path":${JSON.stringify(req.originalUrl)},"status":${this.statusCode},"durationMs":${Math.round(seconds * 1e6) / 1e3}${caller ? `,"consumerId":${caller.consumerId}` : ''}`,
      );
    }
  }

  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const locals = res.locals as RequestContext;
    locals.requestId = requestId;
    locals.startedAt = performance.now();
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', onFinish);
    next();
  };
}
