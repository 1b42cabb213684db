import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import type { NextFunction, Request, Response } from 'express';
import { principalOf } from '../../../../libs/auth/src/index.js';
import type { Principal } from '../../../../libs/auth/src/index.js';
import { JsonLogger, Metrics } from '../../../../libs/runtime/src/index.js';

/** Per-request values, kept in express's `res.locals`. */
interface RequestContext {
  requestId: string;
  startedAt: number;
  observer: RequestObserver;
  principal?: Principal;
}

type ContextResponse = Response & { locals: Partial<RequestContext>; req: Request };

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Printable ASCII without `"` and `\`: such a path goes into the JSON log line as it is. */
const PLAIN_PATH = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const RESPONSE_FINISH = 'http.server.response.finish';

/** The id of the request this response answers. */
export function requestIdOf(res: Response): string | undefined {
  return (res as ContextResponse).locals?.requestId;
}

/**
 * Gives every request an id (the caller's X-Request-Id when it is sane) and echoes it; when the
 * response has been sent, writes one access-log line and the request metrics.
 *
 * This runs on every request, so it is frugal: the end of a response is observed through Node's
 * `http.server.response.finish` diagnostics channel (one subscription, no listener per request),
 * metrics are plain numbers, the log line is a template, and per-request values live in
 * `res.locals` rather than as new properties of request objects (which would give them new shapes
 * and slow every later property read on them).
 */
@Injectable()
export class RequestObserver implements OnApplicationShutdown {
  private readonly logAccess: boolean;
  private readonly onFinish = (message: unknown) => this.finished((message as { response: ContextResponse }).response);

  constructor(
    private readonly logger: JsonLogger,
    private readonly metrics: Metrics,
  ) {
    this.logAccess = logger.enabled('info');
    diagnostics.subscribe(RESPONSE_FINISH, this.onFinish);
  }

  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const locals = res.locals as RequestContext;
    locals.requestId = requestId;
    locals.startedAt = performance.now();
    locals.observer = this;
    res.setHeader('X-Request-Id', requestId);
    next();
  };

  private finished(res: ContextResponse): void {
    const context = res.locals;
    // Every HTTP server of the process publishes here; only this api's requests are ours.
    if (context?.observer !== this) return;
    const req = res.req;
    const seconds = (performance.now() - context.startedAt!) / 1000;
    const route = (req.route?.path as string | undefined) ?? 'unmatched';
    this.metrics.http.record(req.method, route, res.statusCode, seconds);
    if (!this.logAccess) return;
    const caller = principalOf(res as never);
    const path = PLAIN_PATH.test(req.originalUrl) ? `"${req.originalUrl}"` : JSON.stringify(req.originalUrl);
    this.logger.writeRaw(
      `"msg":"request","requestId":"${context.requestId}","method":"${req.method}","path":${path},"status":${res.statusCode},"durationMs":${Math.round(seconds * 1e6) / 1e3}${caller ? `,"consumerId":${caller.consumerId}` : ''}`,
    );
  }

  onApplicationShutdown(): void {
    diagnostics.unsubscribe(RESPONSE_FINISH, this.onFinish);
  }
}
