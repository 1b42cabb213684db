import { describe, expect, it } from '@jest/globals';
import { InvalidInputError } from '#errors';
import { queryTimeMs } from './query-time.js';

describe('queryTimeMs', () => {
  it('reads a zone, an offset, no zone (UTC) and a date alone (midnight UTC)', () => {
    expect(queryTimeMs('start', '2026-03-01T10:00:00.250Z')).toBe(Date.UTC(2026, 2, 1, 10, 0, 0, 250));
    expect(queryTimeMs('start', '2026-03-01T12:00:00+02:00')).toBe(Date.UTC(2026, 2, 1, 10));
    expect(queryTimeMs('start', '2026-03-01T10:00')).toBe(Date.UTC(2026, 2, 1, 10));
    expect(queryTimeMs('start', '2026-03-01')).toBe(Date.UTC(2026, 2, 1));
  });

  it('refuses dates that do not exist and text that is no time, naming the field', () => {
    for (const bad of [
      '2026-02-30T00:00:00Z',
      '2026-13-01',
      'yesterday',
      '',
      '1700000000000',
      '2026-03-01T25:00:00Z',
      '2026-03-01 10:00:00',
    ]) {
      let error: unknown;
      try {
        queryTimeMs('end', bad);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(error).toMatchObject({
        field: 'end',
        message: 'end must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)',
      });
    }
  });
});
