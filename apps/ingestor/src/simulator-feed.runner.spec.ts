import { describe, expect, it } from '@jest/globals';
import type { SimulationChunk } from '#market';
import { LIVE_TICK_MS, liveWaitMs } from './simulator-feed.runner.js';

const TARGET = Date.UTC(2026, 10, 25, 12, 0, 0, 500);
const chunk = (untilMs: number): SimulationChunk => ({ untilMs, lines: 12, fills: 3, issues: [], states: [] });

describe('liveWaitMs: the live simulator paces itself by the clock', () => {
  it('waits a tick once a chunk has reached the clock, so the next one holds a tick of exchange time', () => {
    expect(LIVE_TICK_MS).toBe(1_000);
    expect(liveWaitMs(chunk(TARGET), TARGET)).toBe(1_000);
    // A chunk may end past the target: the exchange time it reached is the files' end.
    expect(liveWaitMs(chunk(TARGET + 3), TARGET)).toBe(1_000);
  });

  it('waits a tick when there was nothing to do', () => {
    expect(liveWaitMs(null, TARGET)).toBe(1_000);
  });

  it('goes on at once while behind the clock (a chunk cut at a state-update boundary or an hour)', () => {
    const boundary = Date.UTC(2026, 10, 25, 12, 0, 0, 0);
    expect(liveWaitMs(chunk(boundary), TARGET)).toBe(0);
  });

  it('adds no wait after a failed step, which has waited before retrying', () => {
    expect(liveWaitMs(undefined, TARGET)).toBe(0);
  });
});
