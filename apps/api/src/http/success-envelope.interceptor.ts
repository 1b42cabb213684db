import { CallHandler, ExecutionContext, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { map, type Observable } from 'rxjs';
import { JsonText } from '#database';
import { WithMessage } from '#market';

export interface SuccessBody<T> {
  status: 'success';
  data: T;
  message?: string;
}

function envelope<T>(result: T | WithMessage<T>): SuccessBody<T> | JsonText {
  const body =
    result instanceof WithMessage
      ? { status: 'success' as const, data: result.data, message: result.message }
      : { status: 'success' as const, data: result };
  // Data Postgres rendered as JSON stays text: the envelope is written around it.
  return body.data instanceof JsonText ? JsonText.object(body) : body;
}

/**
 * Wraps what a handler returns as `{status: "success", data}`, with `message` when it returned a
 * WithMessage; JsonText data gives a JsonText body.
 */
@Injectable()
export class SuccessEnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<SuccessBody<unknown> | JsonText> {
    return next.handle().pipe(map(envelope));
  }
}

/**
 * Marks a route whose body the contract (the API contract) does not define: its handler returns the data only and
 * the body is `{status: "success", data, message?}`. Routes with a SPEC-defined body (segments' bare array)
 * are not marked, and pay nothing: Nest runs no interceptor chain for a route without interceptors.
 */
export const SuccessEnvelope = () => UseInterceptors(SuccessEnvelopeInterceptor);
