import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';
import { HyperliquidSimulator } from './simulator.js';
import { restoreSimulator, saveSimulator, SavedStateRefusedError } from './simulator-saved-state.js';
import type { SimulatorSettings } from './simulator.types.js';

// The default settings (SIM_* in AppConfig): a full book, every kind of order and ledger move.
const START = Date.UTC(2026, 10, 18, 7, 0);
const SETTINGS: SimulatorSettings = { seed: 1, startTimeMs: START, wallets: 300, markets: 8, eventsPerSecond: 1, bookOrders: 5_000 };
const HOUR_MS = 3_600_000;

const linesOf = (simulator: HyperliquidSimulator, untilMs: number): string[] => [...simulator.run(untilMs)].map((l) => l.line);

/** A saved state whose content is rewritten by `change`, with a checksum that matches it. */
function rewritten(saved: Uint8Array, change: (state: Record<string, unknown>) => void): Uint8Array {
  const state = deserialize(saved.subarray(32)) as Record<string, unknown>;
  change(state);
  const body = serialize(state);
  return Buffer.concat([createHash('sha256').update(body).digest(), body]);
}

describe('simulator saved state', () => {
  // Two hours in (a funding hour passed, the book full, TWAPs and triggers under way), 30 minutes 7 seconds more.
  const savedAt = START + 2 * HOUR_MS;
  const until = savedAt + 30 * 60_000 + 7_000;
  const uninterrupted = new HyperliquidSimulator(SETTINGS);
  const before = linesOf(uninterrupted, savedAt);
  const saved = saveSimulator(uninterrupted);

  it('restores a simulator that writes the very blocks the saved one goes on to write', () => {
    const restored = restoreSimulator(saved, SETTINGS);
    expect(restored).toBeInstanceOf(HyperliquidSimulator);
    expect(restored.reachedMs).toBe(savedAt);
    expect(restored.height).toBe(uninterrupted.height);
    const after = linesOf(restored, until);
    expect(before.length).toBeGreaterThan(10_000);
    expect(after.length).toBeGreaterThan(2_000);
    expect(after).toEqual(linesOf(uninterrupted, until));
    // The whole state agrees too, books included: each saved again holds the same graph (v8 may write a
    // number once as an integer, once as a double, so the bytes themselves can differ).
    const graph = (simulator: HyperliquidSimulator) => deserialize(saveSimulator(simulator).subarray(32)) as unknown;
    expect(graph(restored)).toEqual(graph(uninterrupted));
    expect(restored.openOrders()).toEqual(uninterrupted.openOrders());
  });

  it('refuses a damaged state, naming the problem', () => {
    const damaged = Uint8Array.from(saved);
    damaged[damaged.length - 100]! ^= 1;
    expect(() => restoreSimulator(damaged, SETTINGS)).toThrow(
      new SavedStateRefusedError('its checksum does not match its content (a file cut short or damaged)'),
    );
    expect(() => restoreSimulator(saved.subarray(0, saved.length - 1), SETTINGS)).toThrow(SavedStateRefusedError);
    expect(() => restoreSimulator(new Uint8Array(0), SETTINGS)).toThrow(SavedStateRefusedError);
  });

  it('refuses a state of another layout, other code or other settings', () => {
    expect(() =>
      restoreSimulator(
        rewritten(saved, (s) => (s.version = 0)),
        SETTINGS,
      ),
    ).toThrow(new SavedStateRefusedError('it has layout 0, this build reads 1'));
    expect(() =>
      restoreSimulator(
        rewritten(saved, (s) => (s.code = 'another build')),
        SETTINGS,
      ),
    ).toThrow(new SavedStateRefusedError("it was saved by another build of the simulator's code"));
    expect(() => restoreSimulator(saved, { ...SETTINGS, seed: 2 })).toThrow(/^it was saved with \{.*"seed":1.*\}, not \{.*"seed":2.*\}$/);
  });
});
