import { describe, expect, it } from '@jest/globals';
import {
  EXPIRY_MS_BY_TYPE,
  MAX_ATTEMPTS,
  MAX_IN_FLIGHT_PER_ENDPOINT,
  nextAttemptDelayMs,
  RETRY_SCHEDULE_MS,
  SUSPEND_AFTER_CONSECUTIVE_FAILURES,
  SUSPEND_AFTER_FAILING_FOR_MS,
} from './retry-policy.js';

const HOUR = 3_600_000;

describe('retry schedule', () => {
  it('is 8 attempts: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(RETRY_SCHEDULE_MS).toEqual([0, 5_000, 300_000, 30 * 60_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]);
    expect(MAX_ATTEMPTS).toBe(8);
    expect(nextAttemptDelayMs(0, null, () => 0.5)).toBe(0);
  });

  it('waits the scheduled time after each attempt (jitter at its middle) and stops after the 8th', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((made) => nextAttemptDelayMs(made, null, () => 0.5))).toEqual([
      5_000,
      300_000,
      1_800_000,
      2 * HOUR,
      5 * HOUR,
      10 * HOUR,
      10 * HOUR,
    ]);
    expect(nextAttemptDelayMs(8, null, () => 0.5)).toBeNull();
    expect(nextAttemptDelayMs(8, 60_000, () => 0.5)).toBeNull();
    expect(nextAttemptDelayMs(9, null)).toBeNull();
  });

  it('jitters by at most 20 % either way', () => {
    expect(nextAttemptDelayMs(1, null, () => 0)).toBe(4_000);
    expect(nextAttemptDelayMs(1, null, () => 0.999999)).toBe(6_000);
    expect(nextAttemptDelayMs(4, null, () => 0)).toBe(5_760_000);
    expect(nextAttemptDelayMs(6, null, () => 0.25)).toBe(32_400_000);
  });

  it('jitters the 10 h waits too (8 h to 12 h)', () => {
    expect(nextAttemptDelayMs(7, null, () => 0)).toBe(8 * HOUR);
    expect(nextAttemptDelayMs(7, null, () => 0.999999)).toBe(43_199_986);
  });

  it('lets a longer Retry-After replace the wait, never shortens it, and caps it at 10 h', () => {
    expect(nextAttemptDelayMs(1, 7_000, () => 0.5)).toBe(7_000);
    expect(nextAttemptDelayMs(1, 5_500, () => 1)).toBe(6_000);
    expect(nextAttemptDelayMs(2, 7_000, () => 0.5)).toBe(300_000);
    expect(nextAttemptDelayMs(1, 0, () => 0.5)).toBe(5_000);
    expect(nextAttemptDelayMs(1, 90_000_000, () => 0.5)).toBe(10 * HOUR);
    expect(nextAttemptDelayMs(7, 90_000_000, () => 0.75)).toBe(11 * HOUR);
  });

  it('throws on an attempt count that is no count (a caller bug)', () => {
    expect(() => nextAttemptDelayMs(-1, null)).toThrow(RangeError);
    expect(() => nextAttemptDelayMs(1.5, null)).toThrow(RangeError);
  });
});

describe('limits', () => {
  it('expires price crossings and large orders after an hour, nothing else', () => {
    expect(EXPIRY_MS_BY_TYPE).toEqual({
      position_activity: null,
      twap_execution: null,
      twap_lifecycle: null,
      ledger_update: null,
      liquidation: null,
      price_crossing: HOUR,
      large_market_order: HOUR,
      state_updated: null,
    });
  });
  it('suspends after 100 failures in a row or 5 days of failing; 10 requests in flight per endpoint', () => {
    expect(SUSPEND_AFTER_CONSECUTIVE_FAILURES).toBe(100);
    expect(SUSPEND_AFTER_FAILING_FOR_MS).toBe(5 * 24 * HOUR);
    expect(MAX_IN_FLIGHT_PER_ENDPOINT).toBe(10);
  });
});
