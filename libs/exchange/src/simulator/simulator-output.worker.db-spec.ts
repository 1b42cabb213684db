import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { InProcessSimulatorEngine, WorkerSimulatorEngine, type GeneratedSpan } from './simulator-engine.js';
import { SavedStateRefusedError } from './simulator-saved-state.js';
import type { SimulatorSettings } from './simulator.types.js';

/*
 * No database here: this spec is in the db tier because that tier runs after the build (npm test), and a
 * worker thread runs the build's JavaScript, not the TypeScript sources. The unit tier pins the simulator's
 * bytes in process (simulator-output.pin.spec.ts); this holds the worker thread to those same bytes.
 */
const WORKER_URL = new URL('../../../../dist/libs/exchange/src/simulator/simulator.worker.js', import.meta.url);

// The pin spec's settings and spans.
const START = Date.UTC(2026, 10, 18, 7, 0);
const SETTINGS: SimulatorSettings = { seed: 1, startTimeMs: START, wallets: 300, markets: 8, eventsPerSecond: 1, bookOrders: 5_000 };
const CHUNK_MS = 15 * 60_000;
const UNTIL = START + 140 * 60_000;
/** Spans asked of the worker before the oldest is taken, as the ingestion reads ahead. */
const AHEAD = 3;

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

/** What a span gives the directory and the state update, as hashes, so a difference reads as a short diff. */
function digest(span: GeneratedSpan) {
  return {
    untilMs: span.untilMs,
    lines: span.lines,
    files: span.files.map((f) => ({ path: f.path, sha256: sha256(f.bytes) })),
    state: sha256(JSON.stringify(span.state)),
  };
}

describe('simulator output from a worker thread', () => {
  it('is the in-process output byte for byte, books included, with spans asked for ahead', async () => {
    const worker = new WorkerSimulatorEngine(SETTINGS, WORKER_URL);
    const inProcess = new InProcessSimulatorEngine(SETTINGS);
    try {
      const asked: Array<Promise<GeneratedSpan>> = [];
      let compared = 0;
      const compareOldest = async () => {
        const fromWorker = await asked.shift()!;
        expect(digest(fromWorker)).toEqual(digest(await inProcess.generate(fromWorker.untilMs, true)));
        compared++;
      };
      for (let end = START + CHUNK_MS; ; end = Math.min(end + CHUNK_MS, UNTIL)) {
        asked.push(worker.generate(end, true));
        if (asked.length > AHEAD) await compareOldest();
        if (end === UNTIL) break;
      }
      while (asked.length > 0) await compareOldest();
      expect(compared).toBe(10);
    } finally {
      await worker.close();
      await inProcess.close();
    }
  });

  it('restores a saved state in the worker, which then goes on with the bytes of a run never stopped', async () => {
    const inProcess = new InProcessSimulatorEngine(SETTINGS);
    const saving = new WorkerSimulatorEngine(SETTINGS, WORKER_URL);
    const restored = new WorkerSimulatorEngine(SETTINGS, WORKER_URL);
    try {
      const savedAt = START + 4 * CHUNK_MS;
      await inProcess.generate(savedAt, false);
      const { saved } = await saving.generate(savedAt, false, true);
      expect(await restored.restore(saved!)).toBe(savedAt);
      for (let end = savedAt + CHUNK_MS; end <= UNTIL; end += CHUNK_MS)
        expect(digest(await restored.generate(end, true))).toEqual(digest(await inProcess.generate(end, true)));
      // A state refused leaves the worker's simulator as it was.
      await expect(restored.restore(saved!.subarray(0, 100))).rejects.toThrow(SavedStateRefusedError);
      expect(digest(await restored.generate(UNTIL + CHUNK_MS, true))).toEqual(digest(await inProcess.generate(UNTIL + CHUNK_MS, true)));
    } finally {
      await Promise.all([inProcess.close(), saving.close(), restored.close()]);
    }
  });
});
