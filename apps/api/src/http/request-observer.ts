import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import type { NextFunction, Request, Response } from 'express';
import { type Principal, principalOf } from '#auth';
import { JsonLogger, Metrics } from '#runtime';

/**
 * Per-request values, one object under `res.locals.request`: express makes `res.locals` a
 * prototype-less object, which V8 keeps as a hash table, so one insert there beats one per value.
 */
class RequestContext {
  constructor(
    readonly requestId: string,
    readonly startedAt: number,
    readonly observer: RequestObserver,
  ) {}
}

type ContextResponse = Response & { locals: { request?: RequestContext; principal?: Principal }; req: Request };

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Printable ASCII without `"` and `\`: such a path goes into the JSON log line as it is. */
const PLAIN_PATH = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const RESPONSE_FINISH = 'http.server.response.finish';

/**
 * Request ids in UUID form: the first 20 hex digits are random per process, the last 12 count
 * up, so ids are unique without drawing random bytes for every request.
 */
class RequestIds {
  private readonly prefix = randomUUID().slice(0, 24);
  private next = Math.floor(Math.random() * 2 ** 40);

  take(): string {
    return this.prefix + (this.next++ % 2 ** 48).toString(16).padStart(12, '0');
  }
}

/** The id of the request this response answers. */
export function requestIdOf(res: Response): string | undefined {
  return (res as ContextResponse).locals?.request?.requestId;
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
  private readonly ids = new RequestIds();
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
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : this.ids.take();
    (res as ContextResponse).locals.request = new RequestContext(requestId, performance.now(), this);
    res.setHeader('X-Request-Id', requestId);
    next();
  };

  private finished(res: ContextResponse): void {
    const context = res.locals?.request;
    // Every HTTP server of the process publishes here; only this api's requests are ours.
    if (context?.observer !== this) return;
    const req = res.req;
    const seconds = (performance.now() - context.startedAt) / 1000;
    const route = req.route as { path: string } | undefined;
    this.metrics.http.record(req.method, route?.path ?? 'unmatched', res.statusCode, seconds, route);
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
