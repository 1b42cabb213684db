import { describe, expect, it, jest } from '@jest/globals';
import type { ArgumentsHost } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { InvalidCursorError } from '#database';
import { ConflictError, InvalidInputError, NotFoundError, PlanLimitError } from '#errors';
import type { JsonLogger } from '#runtime';
import { AllExceptionsFilter } from './all-exceptions.filter.js';
import { ValidationFailedException } from './validation-failed.exception.js';

/** What the filter sends for `exception`, through a fake express request and response. */
function render(exception: unknown): { status: number; body: unknown; logged: unknown[][]; headers: Record<string, string> } {
  const sent: { status?: number; body?: unknown } = {};
  const headers: Record<string, string> = {};
  const res = {
    headersSent: false,
    locals: {},
    setHeader(name: string, value: string) {
      headers[name] = value;
    },
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
  return { status: sent.status!, body: sent.body, logged: write.mock.calls, headers };
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
      headers: {},
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
      headers: {},
    });
  });

  it('answers a lib ConflictError with 409 and its message', () => {
    expect(render(new ConflictError('delivery abc expired at 2026-11-24T11:00:00.000Z'))).toEqual({
      status: 409,
      body: { status: 'error', message: 'delivery abc expired at 2026-11-24T11:00:00.000Z' },
      logged: [],
      headers: {},
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
      headers: {},
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
      headers: {},
    });
  });

  it('answers any other error with a logged 500', () => {
    const { status, body, logged } = render(new Error('connection refused'));
    expect(status).toBe(500);
    expect(body).toEqual({ status: 'error', message: 'Internal error', requestId: undefined });
    expect(logged).toEqual([['error', 'request failed', expect.objectContaining({ method: 'GET', error: 'connection refused' })]]);
  });

  // Postgres away is the server's trouble, not the client's: 503 with a Retry-After, logged like a 500.
  it.each([
    [
      'a server shutting down (SQLSTATE 57P01)',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a connection ended under a query', new Error('Connection terminated unexpectedly')],
    ['the pool wait run out', new Error('timeout exceeded when trying to connect')],
    [
      "TypeORM's wrap of a lost connection (SQLSTATE 08006)",
      new QueryFailedError('SELECT 1', [], Object.assign(new Error('connection failure'), { code: '08006' })),
    ],
  ])('answers %s with a logged 503 and Retry-After', (_, error) => {
    const { status, body, logged, headers } = render(error);
    expect(status).toBe(503);
    expect(body).toEqual({
      status: 'error',
      message: 'Service unavailable: the database cannot be reached; try again shortly',
      requestId: undefined,
    });
    expect(headers).toEqual({ 'Retry-After': '5' });
    expect(logged).toEqual([['error', 'request failed', expect.objectContaining({ error: (error as Error).message })]]);
  });

  it('answers a failed query that is not about the connection (SQLSTATE 42P01) with a 500', () => {
    const error = new QueryFailedError(
      'SELECT * FROM nope',
      [],
      Object.assign(new Error('relation "nope" does not exist'), { code: '42P01' }),
    );
    const { status, headers } = render(error);
    expect(status).toBe(500);
    expect(headers).toEqual({});
  });
});
