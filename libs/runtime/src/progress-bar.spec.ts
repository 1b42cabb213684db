import { describe, expect, it } from '@jest/globals';
import { duration, ProgressBar } from './progress-bar.js';

/** A stream that records what is written, as a log file (not a terminal) would receive it. */
function logStream(): { stream: NodeJS.WriteStream; lines: string[] } {
  const lines: string[] = [];
  const stream = { isTTY: false, write: (text: string) => lines.push(text) } as unknown as NodeJS.WriteStream;
  return { stream, lines };
}

describe('ProgressBar', () => {
  it('shows the rate and the time left at the rate so far, one plain line per tenth', () => {
    let now = 1_000_000;
    const { stream, lines } = logStream();
    const bar = new ProgressBar('backfill', stream, () => now);
    bar.update(0, 'starting');
    now += 20_000;
    bar.update(0.25, '2026-11-17T06:00Z', { done: 350_000, unit: 'fills' });
    bar.update(0.27, 'same tenth: not printed', { done: 370_000, unit: 'fills' });
    now += 40_000;
    bar.done('2026-11-23T12:00Z', { done: 1_400_000, unit: 'fills' });
    expect(lines).toEqual([
      'backfill [..............................]   0% starting\n',
      'backfill [########......................]  25% 2026-11-17T06:00Z, 17,500 fills/s, about 1m00s left\n',
      'backfill [##############################] 100% 2026-11-23T12:00Z, 23,333 fills/s, took 1m00s\n',
    ]);
  });

  it('says nothing of rate or time left before a second has passed', () => {
    const { stream, lines } = logStream();
    const bar = new ProgressBar('backfill', stream, () => 5_000);
    bar.update(0.5, 'half', { done: 10, unit: 'fills' });
    expect(lines).toEqual(['backfill [###############...............]  50% half\n']);
  });
});

describe('duration', () => {
  it('reads as seconds, minutes or hours', () => {
    expect([duration(12_400), duration(245_000), duration(3_725_000)]).toEqual(['12s', '4m05s', '1h02m']);
  });
});
