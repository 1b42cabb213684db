import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { JsonLogger, Metrics } from '../../../../libs/runtime/src/index.js';

export interface RequestWithContext extends Request {
  id: string;
  user?: { consumerId: number };
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when it is sane), echoes it on the response,
 * and on finish writes one access-log line and the request metrics.
 */
export function requestContext(logger: JsonLogger, metrics: Metrics) {
  const logAccess = logger.enabled('info');
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    (req as RequestWithContext).id = id;
    res.setHeader('X-Request-Id', id);
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (req.route?.path as string | undefined) ?? 'unmatched';
      metrics.httpRequests.inc({ method: req.method, route, status: res.statusCode });
      metrics.httpDuration.observe({ method: req.method, route }, seconds);
      if (logAccess) {
        logger.write('info', 'request', {
          requestId: id,
          method: req.method,
          path: req.originalUrl,
          status: res.statusCode,
          durationMs: Math.round(seconds * 1e6) / 1e3,
          consumerId: (req as RequestWithContext).user?.consumerId,
        });
      }
    });
    next();
  };
}
