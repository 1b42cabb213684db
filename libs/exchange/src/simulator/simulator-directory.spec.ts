import { describe, expect, it } from '@jest/globals';
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listHourlyFiles } from '../node-feed/hourly-files.js';
import { NodeStreamReader } from '../node-feed/node-stream.reader.js';
import { NODE_STREAMS } from '../node/node-block.types.js';
import { InProcessSimulatorEngine } from './simulator-engine.js';
import { SIMULATOR_FORMAT, SimulatorDirectory, SimulatorSettingsChangedError } from './simulator-directory.js';
import type { ExchangeState } from '../state/exchange-state.types.js';
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

/** Every hourly file of the directory (`<stream>/hourly/<date>/<hour>`) with its text. */
async function filesOf(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const stream of NODE_STREAMS) {
    for (const file of await listHourlyFiles(join(dir, stream))) {
      const path = join(stream, 'hourly', file.name);
      files.set(path, await readFile(join(dir, path), 'utf8'));
    }
  }
  return files;
}

/** The newest fills file of `files` (filesOf): the one a span's fills are appended to. */
const newestFills = (files: Map<string, string>): string => [...files.keys()].filter((p) => p.startsWith('node_fills_by_block/')).at(-1)!;

/** What the node feed reads of a directory's fills stream from the start: each block's number, and each issue's message. */
async function feedReads(dir: string): Promise<Array<number | string>> {
  const reader = new NodeStreamReader(dir, 'node_fills_by_block', null);
  const out: Array<number | string> = [];
  for (;;) {
    const poll = await reader.poll(1_000);
    out.push(...poll.issues.map((issue) => issue.message), ...poll.blocks.map(({ block }) => block.blockNumber));
    if (poll.blocks.length === 0 && poll.issues.length === 0) return out;
  }
}

/**
 * A directory written to START + 20 s, then killed while appending the span to START + 40 s to its fills
 * file: `cut(span)` is how many of that span's bytes reached the file. The manifest still says 20 s.
 * Also returns the files of a run never killed, to START + 40 s.
 */
async function killedMidAppend(dir: string, cut: (span: string) => number): Promise<{ whole: Map<string, string>; fillsPath: string }> {
  const wholeDir = await mkdtemp(join(tmpdir(), 'hl-sim-whole-'));
  try {
    const whole = await SimulatorDirectory.open(wholeDir, SETTINGS);
    await whole.advance(START + 20_000);
    await whole.advance(START + 40_000);
    await whole.close();
    const killed = await SimulatorDirectory.open(dir, SETTINGS);
    await killed.advance(START + 20_000);
    await killed.close();
    const before = await filesOf(dir);
    const wholeFiles = await filesOf(wholeDir);
    const fillsPath = newestFills(wholeFiles);
    const span = wholeFiles.get(fillsPath)!.slice(before.get(fillsPath)?.length ?? 0);
    await appendFile(join(dir, fillsPath), span.slice(0, cut(span)));
    return { whole: wholeFiles, fillsPath };
  } finally {
    await rm(wholeDir, { recursive: true, force: true });
  }
}

describe('SimulatorDirectory', () => {
  it('records its format and the book size it was made with, the default as a number, and continues with the same settings', async () => {
    await withDir(async (dir) => {
      const first = await SimulatorDirectory.open(dir, SETTINGS);
      await first.advance(START + 20_000);
      expect(await manifest(dir)).toEqual({
        format: SIMULATOR_FORMAT,
        settings: { ...SETTINGS, bookOrders: 5_000 },
        writtenUntilMs: START + 20_000,
      });
      const again = await SimulatorDirectory.open(dir, { ...SETTINGS, bookOrders: 5_000, startTimeMs: START + 99_000 });
      expect([
        again.startTimeMs,
        again.writtenUntilMs,
        (again.engine as InProcessSimulatorEngine).simulator.nowMs <= START + 20_000,
      ]).toEqual([START, START + 20_000, true]);
    });
  });

  it('keeps the books at the times asked for while it replays, as the spans ending there gave them', async () => {
    await withDir(async (dir) => {
      const first = await SimulatorDirectory.open(dir, SETTINGS);
      const states = [];
      for (const at of [START + 20_000, START + 45_000, START + 60_000]) {
        const span = await first.generate(at, true);
        await first.write(span);
        states.push(span.state);
      }
      await first.close();
      const asked: Array<{ startTimeMs: number; writtenUntilMs: number }> = [];
      const replayed = await SimulatorDirectory.open(dir, SETTINGS, undefined, {
        statesAt: (written) => {
          asked.push(written);
          return [START + 45_000, START + 20_000, START + 90_000];
        },
      });
      // Only times the files reach, in time order; the replay still ends where the files do.
      expect(asked).toEqual([{ startTimeMs: START, writtenUntilMs: START + 60_000 }]);
      expect(replayed.replayedStates).toEqual([states[0], states[1]]);
      expect(replayed.replayedStates[0]!.wallets.length).toBe(SETTINGS.wallets);
      expect((replayed.engine as InProcessSimulatorEngine).simulator.nowMs).toBe(states[2]!.timeMs);
    });
  });

  it('refuses another book size', async () => {
    await withDir(async (dir) => {
      await SimulatorDirectory.open(dir, SETTINGS);
      await expect(SimulatorDirectory.open(dir, { ...SETTINGS, bookOrders: 350_000 })).rejects.toThrow(
        /made with .*"bookOrders":5000.*not .*"bookOrders":350000/,
      );
    });
  });

  it('refuses a directory written by an earlier simulator, saying so', async () => {
    await withDir(async (dir) => {
      // What the simulator wrote before formats were recorded.
      await writeFile(join(dir, 'simulator.json'), JSON.stringify({ settings: SETTINGS, writtenUntilMs: START + 60_000 }));
      const opening = SimulatorDirectory.open(dir, SETTINGS);
      await expect(opening).rejects.toThrow(SimulatorSettingsChangedError);
      await expect(SimulatorDirectory.open(dir, SETTINGS)).rejects.toThrow(
        `written by simulator format 1; this simulator writes format ${SIMULATOR_FORMAT}`,
      );
      // Starting over is always possible.
      const fresh = await SimulatorDirectory.open(dir, SETTINGS, undefined, { discardExisting: true });
      expect(fresh.writtenUntilMs).toBe(START);
    });
  });

  it("after a kill in the middle of a span's first line, cuts the half line off when opened again: the files end as if never killed", async () => {
    await withDir(async (dir) => {
      const { whole, fillsPath } = await killedMidAppend(dir, (span) => Math.floor(span.indexOf('\n') / 2));
      const restarted = await SimulatorDirectory.open(dir, SETTINGS);
      expect(restarted.writtenUntilMs).toBe(START + 20_000);
      await restarted.advance(START + 40_000);
      await restarted.close();
      const files = await filesOf(dir);
      expect([...files.keys()]).toEqual([...whole.keys()]);
      expect(files.get(fillsPath)!.length).toBeGreaterThan(0);
      for (const [path, text] of files) expect(text).toBe(whole.get(path));
    });
  });

  it('after a kill later in a span, the feed delivers every block of a run never killed, once each, and no broken line', async () => {
    await withDir(async (dir) => {
      // Two whole lines of the span and half of the third reached the file.
      const { whole, fillsPath } = await killedMidAppend(dir, (span) => {
        const second = span.indexOf('\n', span.indexOf('\n') + 1);
        return second + 1 + Math.floor((span.indexOf('\n', second + 1) - second) / 2);
      });
      const restarted = await SimulatorDirectory.open(dir, SETTINGS);
      await restarted.advance(START + 40_000);
      await restarted.close();
      // The run never killed wrote each block once: its lines' block numbers, in order.
      const wholeBlocks = [...whole]
        .filter(([path]) => path.startsWith('node_fills_by_block/'))
        .flatMap(([, text]) =>
          text
            .split('\n')
            .slice(0, -1)
            .map((line) => (JSON.parse(line) as { block_number: number }).block_number),
        );
      expect(whole.get(fillsPath)!.length).toBeGreaterThan(0);
      expect(wholeBlocks.length).toBeGreaterThan(10);
      expect(await feedReads(dir)).toEqual(wholeBlocks);
    });
  });

  it('cuts off an unfinished line longer than its read window (64 KiB), and leaves finished files alone', async () => {
    await withDir(async (dir) => {
      const first = await SimulatorDirectory.open(dir, SETTINGS);
      await first.advance(START + 20_000);
      await first.close();
      const before = await filesOf(dir);
      const fillsPath = newestFills(before);
      await appendFile(join(dir, fillsPath), `{"local_time":"${'x'.repeat(200_000)}`);
      await (await SimulatorDirectory.open(dir, SETTINGS)).close();
      expect(await filesOf(dir)).toEqual(before);
    });
  });

  describe('saved state', () => {
    const HOUR_MS = 3_600_000;
    const QUARTER_MS = 15 * 60_000;
    const STOP = START + HOUR_MS + 2 * QUARTER_MS;
    const UNTIL = START + 2 * HOUR_MS + 3 * QUARTER_MS + 7_000;
    // Every hour saved, whatever the wall time between them.
    const SAVING = { saveStateEveryMs: 0 };

    /** Spans of 15 minutes (the last shorter) from where the directory is to `untilMs`; the books at each end, by time. */
    async function writeTo(directory: SimulatorDirectory, untilMs: number): Promise<Map<number, ExchangeState>> {
      const states = new Map<number, ExchangeState>();
      for (let end = directory.writtenUntilMs; end < untilMs;) {
        end = Math.min((Math.floor(end / QUARTER_MS) + 1) * QUARTER_MS, untilMs);
        const span = await directory.generate(end, true);
        await directory.write(span);
        states.set(end, span.state!);
      }
      return states;
    }

    /** A run never stopped, to UNTIL: its files, and its books at each span's end. */
    async function uninterrupted(): Promise<{ files: Map<string, string>; states: Map<number, ExchangeState> }> {
      const dir = await mkdtemp(join(tmpdir(), 'hl-sim-whole-'));
      try {
        const directory = await SimulatorDirectory.open(dir, SETTINGS, undefined, SAVING);
        const states = await writeTo(directory, UNTIL);
        await directory.close();
        return { files: await filesOf(dir), states };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }

    /** A run stopped at STOP: the directory, as the stop left it. */
    async function stoppedAt(dir: string): Promise<void> {
      const directory = await SimulatorDirectory.open(dir, SETTINGS, undefined, SAVING);
      await writeTo(directory, STOP);
      await directory.close();
    }

    const stateFiles = async (dir: string) => (await readdir(dir)).filter((name) => name.startsWith('simulator-state-')).sort();

    it('is written with the first span of each hour, and named by the manifest', async () => {
      await withDir(async (dir) => {
        await stoppedAt(dir);
        expect((await manifest(dir)).savedState).toEqual({ file: `simulator-state-${START + HOUR_MS}.bin`, reachedMs: START + HOUR_MS });
        expect(await stateFiles(dir)).toEqual([`simulator-state-${START + HOUR_MS}.bin`]);
      });
    });

    it('is written less often than hourly while catching up, and with the span that ends a catch-up an hour or more after the last', async () => {
      await withDir(async (dir) => {
        // The wall time between saves never passes: only the first hour and the end of the catch-up are saved.
        const directory = await SimulatorDirectory.open(dir, SETTINGS, undefined, { saveStateEveryMs: Number.POSITIVE_INFINITY });
        await writeTo(directory, START + 2 * HOUR_MS + 2 * QUARTER_MS);
        expect((await manifest(dir)).savedState.reachedMs).toBe(START + HOUR_MS);
        const end = START + 2 * HOUR_MS + 3 * QUARTER_MS;
        await directory.write(await directory.generate(end, false, true));
        await directory.write(await directory.generate(end + QUARTER_MS, false, true));
        await directory.close();
        expect((await manifest(dir)).savedState.reachedMs).toBe(end);
        expect(await stateFiles(dir)).toEqual([`simulator-state-${end}.bin`]);
      });
    });

    it('lets a restart resume from it, not from the start, and write byte for byte the files of a run never stopped', async () => {
      const whole = await uninterrupted();
      await withDir(async (dir) => {
        await stoppedAt(dir);
        const refused: string[] = [];
        // State updates owed at the saved state's own time and after it are taken on the way.
        const owed = [START + HOUR_MS, START + HOUR_MS + QUARTER_MS];
        const restarted = await SimulatorDirectory.open(dir, SETTINGS, undefined, {
          ...SAVING,
          statesAt: () => owed,
          onSavedStateRefused: (reason) => refused.push(reason),
        });
        expect(refused).toEqual([]);
        expect(restarted.replayedFromMs).toBe(START + HOUR_MS);
        expect(restarted.replayedStates).toEqual(owed.map((t) => whole.states.get(t)));
        await writeTo(restarted, UNTIL);
        await restarted.close();
        const files = await filesOf(dir);
        expect([...files.keys()]).toEqual([...whole.files.keys()]);
        expect([...files.keys()].length).toBe(NODE_STREAMS.length * 3);
        for (const [path, text] of files) expect(text).toBe(whole.files.get(path));
        expect(await stateFiles(dir)).toEqual([`simulator-state-${START + 2 * HOUR_MS}.bin`]);
      });
    });

    it('when damaged, is reported and the simulation replayed from its start, with the same files', async () => {
      const whole = await uninterrupted();
      await withDir(async (dir) => {
        await stoppedAt(dir);
        const file = join(dir, `simulator-state-${START + HOUR_MS}.bin`);
        const bytes = await readFile(file);
        bytes[bytes.length - 10]! ^= 0xff;
        await writeFile(file, bytes);
        const refused: string[] = [];
        const restarted = await SimulatorDirectory.open(dir, SETTINGS, undefined, {
          ...SAVING,
          onSavedStateRefused: (reason) => refused.push(reason),
        });
        expect(refused).toEqual(['its checksum does not match its content (a file cut short or damaged)']);
        expect(restarted.replayedFromMs).toBe(START);
        await writeTo(restarted, UNTIL);
        await restarted.close();
        expect(await filesOf(dir)).toEqual(whole.files);
      });
    });

    it('is not used when a state update owed comes before it, or when it is missing: the replay starts from the beginning', async () => {
      const whole = await uninterrupted();
      await withDir(async (dir) => {
        await stoppedAt(dir);
        const refused: string[] = [];
        const onSavedStateRefused = (reason: string) => refused.push(reason);
        const owed = [START + 3 * QUARTER_MS, START + HOUR_MS + QUARTER_MS];
        const replayed = await SimulatorDirectory.open(dir, SETTINGS, undefined, { statesAt: () => owed, onSavedStateRefused });
        expect(replayed.replayedFromMs).toBe(START);
        expect(replayed.replayedStates).toEqual(owed.map((t) => whole.states.get(t)));
        await replayed.close();
        await rm(join(dir, `simulator-state-${START + HOUR_MS}.bin`));
        expect((await SimulatorDirectory.open(dir, SETTINGS, undefined, { onSavedStateRefused })).replayedFromMs).toBe(START);
        expect(refused).toEqual([
          `a state update owed at ${new Date(owed[0]!).toISOString()} comes before the saved state (${new Date(START + HOUR_MS).toISOString()})`,
          expect.stringMatching(/^simulator-state-\d+\.bin cannot be read: ENOENT/),
        ]);
      });
    });
  });
});
