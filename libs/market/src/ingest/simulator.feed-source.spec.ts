import { describe, expect, it } from '@jest/globals';
import type { SimulationChunk } from './simulated-exchange.ingestion.js';
import { behindTheClock, LIVE_TICK_MS } from './simulator.feed-source.js';

const TARGET = Date.UTC(2026, 10, 25, 12, 0, 0, 500);
const chunk = (untilMs: number): SimulationChunk => ({ untilMs, lines: 12, blocks: 4, fills: 3, issues: [], states: [] });

describe('behindTheClock: the live simulator paces itself by the clock', () => {
  it('waits a tick once a chunk has reached the clock, so the next one holds a tick of exchange time', () => {
    expect(LIVE_TICK_MS).toBe(1_000);
    expect(behindTheClock(chunk(TARGET), TARGET)).toBe(false);
    // A chunk may end past the target: the exchange time it reached is the files' end.
    expect(behindTheClock(chunk(TARGET + 3), TARGET)).toBe(false);
  });

  it('waits a tick when there was nothing to do', () => {
    expect(behindTheClock(null, TARGET)).toBe(false);
  });

  it('goes on at once while behind the clock (a chunk cut at a state-update boundary or an hour)', () => {
    const boundary = Date.UTC(2026, 10, 25, 12, 0, 0, 0);
    expect(behindTheClock(chunk(boundary), TARGET)).toBe(true);
  });
});
