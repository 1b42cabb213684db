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
