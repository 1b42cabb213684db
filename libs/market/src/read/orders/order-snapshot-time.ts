import { InvalidInputError } from '#errors';
import { SNAPSHOT_INTERVAL_MS, SNAPSHOT_RETENTION_MS } from '../../orders/snapshot-grid.js';
import { queryTimeMs } from '../query-time.js';

const FIELD = 'snapshotTime';

/**
 * Epoch ms of a `snapshotTime` path value, checked against the contract's rules one at a time, each its
 * own InvalidInputError on `snapshotTime`: ISO 8601 (a time without a zone is UTC), on the 5-minute grid,
 * not in the future and within the last 30 days (both on the wall clock `nowMs`: what a caller can see).
 * The 30 days are inclusive: a grid time exactly 30 days before now is accepted.
 */
export function snapshotTimeMs(value: string, nowMs: number): number {
  const ms = queryTimeMs(FIELD, value);
  if (ms % SNAPSHOT_INTERVAL_MS !== 0) {
    throw new InvalidInputError(
      FIELD,
      `${FIELD} must lie on a 5-minute boundary (minutes a multiple of 5, no seconds), e.g. 2026-01-01T10:05:00.000Z`,
    );
  }
  if (ms > nowMs) throw new InvalidInputError(FIELD, `${FIELD} must not be in the future`);
  if (ms < nowMs - SNAPSHOT_RETENTION_MS)
    throw new InvalidInputError(FIELD, `${FIELD} must be within the last 30 days (snapshots are kept 30 days)`);
  return ms;
}
