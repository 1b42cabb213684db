// A receiver's answer as the sender reads it; what a delivery does next (the schedule, expiry,
// suspension) is the delivery's retry policy (delivery/retry-policy.ts).

/** `Retry-After` as seconds or an HTTP date, in ms from `nowMs`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at) || !/[a-z]/i.test(text)) return null;
  return Math.max(0, at - nowMs);
}

/** What an HTTP status means for a delivery. Redirects are never followed: a 3xx is a permanent failure. */
export function outcomeOfStatus(status: number): 'delivered' | 'retryable' | 'permanent' | 'gone' {
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 410) return 'gone';
  if (status === 408 || status === 409 || status === 425 || status === 429 || status >= 500) return 'retryable';
  return 'permanent';
}
