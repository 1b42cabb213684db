import { describe, expect, it, jest } from '@jest/globals';
import type { ArgumentsHost } from '@nestjs/common';
import { InvalidCursorError } from '#database';
import { ConflictError, InvalidInputError, NotFoundError, PlanLimitError } from '#errors';
import type { JsonLogger } from '#runtime';
import { AllExceptionsFilter } from './all-exceptions.filter.js';
import { ValidationFailedException } from './validation-failed.exception.js';

/** What the filter sends for `exception`, through a fake express request and response. */
function render(exception: unknown): { status: number; body: unknown; logged: unknown[][] } {
  const sent: { status?: number; body?: unknown } = {};
  const res = {
    headersSent: false,
    locals: {},
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: unknown) {
      sent.body = body;
      return this;
    },
  };
  const req = { method: 'GET', originalUrl: '/api/external/closed-trades' };
  const host = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ArgumentsHost;
  const write = jest.fn();
  new AllExceptionsFilter({ write } as unknown as JsonLogger).catch(exception, host);
  return { status: sent.status!, body: sent.body, logged: write.mock.calls };
}

describe('AllExceptionsFilter', () => {
  it('answers a lib InvalidInputError with the 400 body of a failed validation, naming the field', () => {
    expect(render(new InvalidInputError('startTime', 'startTime and endTime must be no more than 30 days apart'))).toEqual({
      status: 400,
      body: {
        status: 'error',
        message: 'Invalid parameters: startTime',
        errors: [{ field: 'startTime', message: 'startTime and endTime must be no more than 30 days apart' }],
      },
      logged: [],
    });
  });

  it('answers a cursor the list did not issue with a 400 naming nextCursor', () => {
    const { status, body } = render(new InvalidCursorError('signature does not match'));
    expect(status).toBe(400);
    expect(body).toEqual({
      status: 'error',
      message: 'Invalid parameters: nextCursor',
      errors: [
        { field: 'nextCursor', message: 'nextCursor is not a cursor this list issued (signature does not match); start again without it' },
      ],
    });
  });

  it('answers a lib NotFoundError with 404 and its message', () => {
    expect(render(new NotFoundError('No builder 0xabc has routed a fill'))).toEqual({
      status: 404,
      body: { status: 'error', message: 'No builder 0xabc has routed a fill' },
      logged: [],
    });
  });

  it('answers a lib ConflictError with 409 and its message', () => {
    expect(render(new ConflictError('delivery abc expired at 2026-11-24T11:00:00.000Z'))).toEqual({
      status: 409,
      body: { status: 'error', message: 'delivery abc expired at 2026-11-24T11:00:00.000Z' },
      logged: [],
    });
  });

  it('answers a lib PlanLimitError with 403 naming the limit, the plan and its cap', () => {
    expect(render(new PlanLimitError('ruleAddresses', 'free', 1000, 'the Free plan allows 1000 addresses'))).toEqual({
      status: 403,
      body: {
        status: 'error',
        error: 'plan_limit_exceeded',
        message: 'the Free plan allows 1000 addresses',
        limit: 'ruleAddresses',
        plan: 'free',
        max: 1000,
      },
      logged: [],
    });
  });

  it('gives a failed validation the same shape', () => {
    const errors = [
      { field: 'limit', message: 'limit must not be greater than 16' },
      { field: 'limit', message: 'limit must be an integer number' },
    ];
    expect(render(new ValidationFailedException(errors))).toEqual({
      status: 400,
      body: { status: 'error', message: 'Invalid parameters: limit', errors },
      logged: [],
    });
  });

  it('answers any other error with a logged 500', () => {
    const { status, body, logged } = render(new Error('connection refused'));
    expect(status).toBe(500);
    expect(body).toEqual({ status: 'error', message: 'Internal error', requestId: undefined });
    expect(logged).toEqual([['error', 'request failed', expect.objectContaining({ method: 'GET', error: 'connection refused' })]]);
  });
});
