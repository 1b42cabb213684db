import { HttpException, HttpStatus } from '@nestjs/common';

/**
 * 429 with the design's body `{error, message, retry_after}` and a `Retry-After` header; the
 * exception filter sends `getResponse()` unchanged.
 */
export class QuotaExceededException extends HttpException {
  constructor(
    readonly kind: 'rate_limit_exceeded' | 'usage_limit_exceeded',
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super({ error: kind, message, retry_after: retryAfterSeconds }, HttpStatus.TOO_MANY_REQUESTS);
  }
}
