import { describe, expect, it } from '@jest/globals';
import { InvalidInputError } from '#errors';
import { snapshotTimeMs } from './order-snapshot-time.js';

const NOW = Date.UTC(2026, 2, 2, 10, 7, 30);
const DAY = 24 * 3_600_000;

const failure = (value: string): string => {
  try {
    snapshotTimeMs(value, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ field: 'snapshotTime' });
    return (error as Error).message;
  }
  throw new Error(`${value} was accepted`);
};

describe('snapshotTimeMs', () => {
  it('reads a grid time of the last 30 days in any ISO 8601 spelling, the 30 days inclusive', () => {
    expect(snapshotTimeMs('2026-03-02T10:05:00.000Z', NOW)).toBe(Date.UTC(2026, 2, 2, 10, 5));
    expect(snapshotTimeMs('2026-03-02T12:05+02:00', NOW)).toBe(Date.UTC(2026, 2, 2, 10, 5));
    expect(snapshotTimeMs('2026-03-02T10:05:00', NOW)).toBe(Date.UTC(2026, 2, 2, 10, 5));
    expect(snapshotTimeMs('2026-03-02', NOW)).toBe(Date.UTC(2026, 2, 2));
    const edge = Date.UTC(2026, 2, 2, 10, 5) - 30 * DAY;
    expect(snapshotTimeMs(new Date(edge).toISOString(), edge + 30 * DAY)).toBe(edge);
  });

  it('names the first rule broken: ISO 8601, then the grid, then the future, then the 30 days', () => {
    expect(failure('2026-03-02 10:05')).toMatch(/^snapshotTime must be an ISO 8601 date or time/);
    expect(failure('2026-03-02T10:05:00.001Z')).toMatch(/^snapshotTime must lie on a 5-minute boundary/);
    expect(failure('2026-03-02T10:04:00Z')).toMatch(/^snapshotTime must lie on a 5-minute boundary/);
    expect(failure('2026-03-02T10:10:00Z')).toBe('snapshotTime must not be in the future');
    expect(failure('2026-03-05T10:01:00Z')).toMatch(/^snapshotTime must lie on a 5-minute boundary/);
    expect(failure('2026-01-31T10:05:00Z')).toBe('snapshotTime must be within the last 30 days (snapshots are kept 30 days)');
  });
});
