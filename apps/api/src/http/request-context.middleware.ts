import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { JsonLogger, Metrics } from '../../../../libs/runtime/src/index.js';

export interface RequestWithContext extends Request {
  id: string;
  user?: { consumerId: number };
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const STARTED = Symbol('startedAt');

type TimedResponse = Response & { [STARTED]: number; req: RequestWithContext };

/**
 * Gives every request an id (the caller's X-Request-Id when it is sane), echoes it on the response,
 * and on finish writes one access-log line and the request metrics.
 *
 * This runs on every request, so it allocates little: one shared finish listener, plain-number
 * metrics, and the log line written as a template.
 */
export function requestContext(logger: JsonLogger, metrics: Metrics) {
  const logAccess = logger.enabled('info');
  function onFinish(this: TimedResponse): void {
    const req = this.req;
    const seconds = (performance.now() - this[STARTED]) / 1000;
    const route = (req.route?.path as string | undefined) ?? 'unmatched';
    metrics.http.record(req.method, route, this.statusCode, seconds);
    if (logAccess) {
      logger.writeRaw(
        `"msg":"request","requestId":"${req.id}","method":"${req.method}","path":${JSON.stringify(req.originalUrl)},"status":${this.statusCode},"durationMs":${Math.round(seconds * 1e6) / 1e3}${req.user ? `,"consumerId":${req.user.consumerId}` : ''}`,
      );
    }
  }

  return (req: Request, res: Response, next: NextFunction): void => {
    (res as TimedResponse)[STARTED] = performance.now();
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    (req as RequestWithContext).id = id;
    res.setHeader('X-Request-Id', id);
    res.on('finish', onFinish);
    next();
  };
}
