import { describe, expect, it } from '@jest/globals';
import { WireError } from './parse-result.js';
import { expectNodeTime, nodeTimeToMs } from './node-time.js';

describe('hl-node timestamps', () => {
  it('are UTC without a zone, read to epoch ms with the nanoseconds truncated', () => {
    // The liquidation fixture's block_time; its fill's `time` is 1782636233257.
    expect(nodeTimeToMs('2026-06-28T08:43:53.257028820')).toBe(1782636233257);
    expect(nodeTimeToMs('2026-06-28T08:43:53.257999999')).toBe(1782636233257);
    expect(nodeTimeToMs('2026-06-28T08:43:53')).toBe(Date.UTC(2026, 5, 28, 8, 43, 53));
    expect(nodeTimeToMs('2026-06-28T08:43:53.5')).toBe(Date.UTC(2026, 5, 28, 8, 43, 53, 500));
    expect(nodeTimeToMs('2026-06-28T08:43:53.257028820Z')).toBe(1782636233257);
  });

  it('keep the original string beside the ms', () => {
    expect(expectNodeTime('2025-10-27T06:30:38.019609515', 'block_time')).toEqual({
      iso: '2025-10-27T06:30:38.019609515',
      ms: 1761546638019,
    });
  });

  it('refuse what is not one, naming the path', () => {
    const bad = [
      '2026-13-01T00:00:00',
      '2026-02-30T00:00:00',
      '2026-06-28 08:43:53',
      '2026-06-28T08:43:53.1234567890',
      '',
      '2026-06-28T08:43:53+02:00',
    ];
    for (const text of bad) expect(nodeTimeToMs(text)).toBeNull();
    expect(() => expectNodeTime(1782636233257, 'events[0].time')).toThrow(WireError);
    try {
      expectNodeTime('yesterday', 'events[0].time');
    } catch (error) {
      expect((error as WireError).path).toBe('events[0].time');
    }
  });
});

describe('hl-node timestamps within an hour already read', () => {
  // The fast path answers for timestamps sharing the hour of one read in full; every answer must be the
  // full reading's, and every refusal too.
  const full = (text: string): number | null => {
    const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z?$/.exec(text);
    if (match === null) return null;
    const [, y, mo, d, h, mi, s, f = ''] = match;
    const ms = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!, +f.padEnd(3, '0').slice(0, 3));
    return new Date(ms).toISOString().slice(0, 19) === text.slice(0, 19) ? ms : null;
  };

  it('read like the full parse, fraction lengths 0 to 9, with and without Z', () => {
    expect(nodeTimeToMs('2026-11-20T17:00:00.286755601')).toBe(Date.UTC(2026, 10, 20, 17, 0, 0, 286));
    const texts: string[] = [];
    for (const [m, s] of [
      ['00', '00'],
      ['07', '09'],
      ['59', '59'],
      ['30', '05'],
    ] as const) {
      texts.push(`2026-11-20T17:${m}:${s}`, `2026-11-20T17:${m}:${s}Z`);
      for (let digits = 1; digits <= 9; digits++) {
        const fraction = '987654321'.slice(0, digits);
        texts.push(`2026-11-20T17:${m}:${s}.${fraction}`, `2026-11-20T17:${m}:${s}.${fraction}Z`);
      }
    }
    for (const text of texts) {
      // Each after a reading of the same hour, so the fast path answers.
      nodeTimeToMs('2026-11-20T17:00:00.000');
      expect([text, nodeTimeToMs(text)]).toEqual([text, full(text)]);
    }
  });

  it('refuse what the full parse refuses', () => {
    const bad = [
      '2026-11-20T17:60:00',
      '2026-11-20T17:00:60',
      '2026-11-20T17:0a:00',
      '2026-11-20T17:00:00.',
      '2026-11-20T17:00:00.1234567890',
      '2026-11-20T17:00:00.12x',
      '2026-11-20T17:00:00ZZ',
      '2026-11-20T17:00:00+00:00',
      '2026-11-20T17:00',
      '2026-11-20T17-00-00',
    ];
    for (const text of bad) {
      nodeTimeToMs('2026-11-20T17:00:00.000');
      expect([text, nodeTimeToMs(text)]).toEqual([text, null]);
    }
  });

  it('move to the next hour and day', () => {
    nodeTimeToMs('2026-12-31T23:59:59.999');
    expect(nodeTimeToMs('2027-01-01T00:00:00.001')).toBe(Date.UTC(2027, 0, 1, 0, 0, 0, 1));
    expect(nodeTimeToMs('2027-01-01T00:59:59.5')).toBe(Date.UTC(2027, 0, 1, 0, 59, 59, 500));
  });
});
