/** Epoch ms as the ISO string Postgres reads as timestamptz (Date keeps milliseconds exactly). */
export const isoTime = (ms: number): string => new Date(ms).toISOString();

/**
 * SQL for the epoch milliseconds of a timestamptz expression, as bigint: extract gives exact numeric
 * seconds, so no float is involved. node-postgres returns bigint as a string: convert with Number().
 */
export const epochMs = (expression: string): string => `(extract(epoch FROM ${expression}) * 1000)::bigint`;
