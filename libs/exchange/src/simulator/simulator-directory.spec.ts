import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessSimulatorEngine } from './simulator-engine.js';
import { SIMULATOR_FORMAT, SimulatorDirectory, SimulatorSettingsChangedError } from './simulator-directory.js';
import type { SimulatorSettings } from './simulator.types.js';

const START = Date.UTC(2026, 5, 28, 8, 0);
const SETTINGS: SimulatorSettings = { seed: 2, startTimeMs: START, wallets: 10, markets: 2, eventsPerSecond: 1 };

async function withDir(test: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'hl-sim-dir-'));
  try {
    await test(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const manifest = async (dir: string) => JSON.parse(await readFile(join(dir, 'simulator.json'), 'utf8'));

describe('SimulatorDirectory', () => {
  it('records its format and the book size it was made with, the default as a number, and continues with the same settings', async () => {
    await withDir(async (dir) => {
      const first = await SimulatorDirectory.open(dir, SETTINGS);
      await first.advance(START + 20_000);
      expect(await manifest(dir)).toEqual({ format: SIMULATOR_FORMAT, settings: { ...SETTINGS, bookOrders: 5_000 }, writtenUntilMs: START + 20_000 });
      const again = await SimulatorDirectory.open(dir, { ...SETTINGS, bookOrders: 5_000, startTimeMs: START + 99_000 });
      expect([again.startTimeMs, again.writtenUntilMs, (again.engine as InProcessSimulatorEngine).simulator.nowMs <= START + 20_000]).toEqual([START, START + 20_000, true]);
    });
  });

  it('refuses another book size', async () => {
    await withDir(async (dir) => {
      await SimulatorDirectory.open(dir, SETTINGS);
      await expect(SimulatorDirectory.open(dir, { ...SETTINGS, bookOrders: 350_000 })).rejects.toThrow(/made with .*"bookOrders":5000.*not .*"bookOrders":350000/);
    });
  });

  it('refuses a directory written by an earlier simulator, saying so', async () => {
    await withDir(async (dir) => {
      // What the simulator wrote before formats were recorded.
      await writeFile(join(dir, 'simulator.json'), JSON.stringify({ settings: SETTINGS, writtenUntilMs: START + 60_000 }));
      const opening = SimulatorDirectory.open(dir, SETTINGS);
      await expect(opening).rejects.toThrow(SimulatorSettingsChangedError);
      await expect(SimulatorDirectory.open(dir, SETTINGS)).rejects.toThrow(`written by simulator format 1; this simulator writes format ${SIMULATOR_FORMAT}`);
      // Starting over is always possible.
      const fresh = await SimulatorDirectory.open(dir, SETTINGS, undefined, { discardExisting: true });
      expect(fresh.writtenUntilMs).toBe(START);
    });
  });
});
