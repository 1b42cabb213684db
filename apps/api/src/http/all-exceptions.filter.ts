import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { Request, Response } from 'express';
import { QuotaExceededException } from '#auth';
import { isDatabaseUnavailable } from '#database';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, PlanLimitError } from '#errors';
import { JsonLogger } from '#runtime';
import { requestIdOf } from './request-observer.js';
import { fieldErrorsBody, ValidationFailedException } from './validation-failed.exception.js';

/** A client told the database is away tries again after this long (a Postgres restart takes seconds). */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Every error body of the design (section 4). Postgres away (restarting, unreachable, out of connections)
 * is a 503 with Retry-After: the client did nothing wrong and may try again. Anything else unexpected is a
 * 500. Both are logged with their cause under the request id.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly logger: JsonLogger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const requestId = requestIdOf(res);
    const [status, body] = this.render(exception, requestId);
    if (status >= 500) {
      this.logger.write('error', 'request failed', {
        requestId,
        method: req.method,
        path: req.originalUrl,
        error: exception instanceof Error ? exception.message : String(exception),
        stack: exception instanceof Error ? exception.stack : undefined,
      });
    }
    if (res.headersSent) return;
    if (status === HttpStatus.SERVICE_UNAVAILABLE) res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    res.status(status).json(body);
  }

  private render(exception: unknown, requestId: string | undefined): [number, object] {
    if (exception instanceof QuotaExceededException) return [exception.getStatus(), exception.getResponse() as object];
    if (exception instanceof ValidationFailedException) return [HttpStatus.BAD_REQUEST, fieldErrorsBody(exception.errors)];
    // A lib's domain errors (libs throw no HTTP exceptions): a bad value reads as a failed validation of its field.
    if (exception instanceof InvalidInputError)
      return [HttpStatus.BAD_REQUEST, fieldErrorsBody([{ field: exception.field, message: exception.message }])];
    if (exception instanceof NotFoundError) return [HttpStatus.NOT_FOUND, { status: 'error', message: exception.message }];
    if (exception instanceof ForbiddenError) return [HttpStatus.FORBIDDEN, { status: 'error', message: exception.message }];
    if (exception instanceof PlanLimitError) {
      const { limit, plan, max, message } = exception;
      return [HttpStatus.FORBIDDEN, { status: 'error', error: 'plan_limit_exceeded', message, limit, plan, max }];
    }
    if (exception instanceof ConflictError) return [HttpStatus.CONFLICT, { status: 'error', message: exception.message }];
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      const status = exception.getStatus();
      if (status === HttpStatus.UNAUTHORIZED) return [status, { status: 'error', message: 'Unauthorized' }];
      return [status, { status: 'error', message: messageOf(exception) }];
    }
    // Errors raised by express itself before Nest (e.g. a malformed JSON body) carry an exposable 4xx.
    const raw = exception as { status?: number; expose?: boolean; message?: string };
    if (typeof raw?.status === 'number' && raw.status >= 400 && raw.status < 500 && raw.expose) {
      return [raw.status, { status: 'error', message: raw.message ?? 'Bad request' }];
    }
    if (isDatabaseUnavailable(exception))
      return [
        HttpStatus.SERVICE_UNAVAILABLE,
        { status: 'error', message: 'Service unavailable: the database cannot be reached; try again shortly', requestId },
      ];
    return [HttpStatus.INTERNAL_SERVER_ERROR, { status: 'error', message: 'Internal error', requestId }];
  }
}

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}
