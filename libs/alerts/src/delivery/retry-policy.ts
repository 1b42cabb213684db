import type { EventType } from '../alert.types.js';

/** When each attempt is made, counted from the previous one: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length;
// A receiver's Retry-After can stretch a wait up to this, no further (a typo'd header must not park a delivery for days).
const MAX_RETRY_AFTER_MS = 36_000_000;
const JITTER = 0.2;

/** Requests one endpoint may have in flight at once, so a slow receiver holds at most this many workers. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 10;

/** An endpoint is suspended after this many failed attempts in a row ... */
export const SUSPEND_AFTER_CONSECUTIVE_FAILURES = 100;
/** ... or when it has been failing with no success for this long. */
export const SUSPEND_AFTER_FAILING_FOR_MS = 5 * 24 * 3_600_000;

/**
 * How long after the occurrence (its exchange time, not when the row was written: a backlog or a slow
 * catch-up must not stretch it) a delivery of each type is still worth sending (null: it never expires):
 * a price crossing or a large order an hour late is noise.
 */
export const EXPIRY_MS_BY_TYPE: Readonly<Record<EventType, number | null>> = Object.freeze({
  position_activity: null,
  twap_execution: null,
  twap_lifecycle: null,
  ledger_update: null,
  liquidation: null,
  price_crossing: 3_600_000,
  large_market_order: 3_600_000,
  state_updated: null,
});

/**
 * The wait before the next attempt after `attemptsMade` attempts, or null when the schedule is spent.
 * The scheduled wait gets +-20 % jitter (so a receiver's outage does not bring every retry back at
 * once); a `Retry-After` longer than that replaces it (itself capped at 10 h); it never shortens it.
 */
export function nextAttemptDelayMs(attemptsMade: number, retryAfterMs: number | null, random: () => number = Math.random): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0) throw new RangeError(`attemptsMade must be a count, got ${attemptsMade}`);
  if (attemptsMade >= MAX_ATTEMPTS) return null;
  const scheduled = RETRY_SCHEDULE_MS[attemptsMade]! * (1 - JITTER + 2 * JITTER * random());
  return Math.round(Math.max(scheduled, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS)));
}
