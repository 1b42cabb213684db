/** Snapshots are taken at every 5-minute boundary of exchange time (epoch ms multiples of this). */
export const SNAPSHOT_INTERVAL_MS = 5 * 60_000;

/** Snapshots, and the order versions only they showed, are kept this long behind the newest snapshot. */
export const SNAPSHOT_RETENTION_MS = 30 * 24 * 3_600_000;

/** The first snapshot time strictly after `ms`. */
export const boundaryAfter = (ms: number): number => Math.floor(ms / SNAPSHOT_INTERVAL_MS) * SNAPSHOT_INTERVAL_MS + SNAPSHOT_INTERVAL_MS;

/** The last snapshot time at or before `ms`. */
export const boundaryAtOrBefore = (ms: number): number => Math.floor(ms / SNAPSHOT_INTERVAL_MS) * SNAPSHOT_INTERVAL_MS;
