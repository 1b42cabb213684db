import { describe, expect, it } from '@jest/globals';
import { outcomeOfStatus, parseRetryAfter } from './webhook-response.js';

describe('parseRetryAfter', () => {
  const now = Date.UTC(2026, 10, 25, 0, 0, 0);
  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('Wed, 25 Nov 2026 00:01:00 GMT', now)).toBe(60_000);
  });
  it('counts a date in the past as no wait', () => {
    expect(parseRetryAfter('Tue, 24 Nov 2026 23:00:00 GMT', now)).toBe(0);
  });
  it('ignores what is neither', () => {
    for (const value of ['soon', '-5', '1.5', '', '   ', '2026-11-25', null, undefined]) expect(parseRetryAfter(value, now)).toBeNull();
  });
});

describe('status outcomes', () => {
  it('2xx delivered; 408, 409, 425, 429, 5xx retryable; 410 gone; everything else, 3xx included, permanent', () => {
    expect([200, 201, 202, 204, 299].map(outcomeOfStatus)).toEqual(Array(5).fill('delivered'));
    expect([408, 409, 425, 429, 500, 502, 503, 504, 599].map(outcomeOfStatus)).toEqual(Array(9).fill('retryable'));
    expect(outcomeOfStatus(410)).toBe('gone');
    expect([100, 301, 302, 304, 307, 308, 400, 401, 403, 404, 405, 411, 413, 422, 426, 431].map(outcomeOfStatus)).toEqual(
      Array(16).fill('permanent'),
    );
  });
});
