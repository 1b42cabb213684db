import { appendFile, type FileHandle, mkdir, open, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { compareHourlyFiles, listHourlyFiles, parseHourlyName } from '../node-feed/hourly-files.js';
import { NODE_STREAMS, type NodeStream } from '../node/node-block.types.js';
import type { ExchangeState } from '../state/exchange-state.types.js';
import { InProcessSimulatorEngine, type GeneratedSpan, type SimulatorEngine } from './simulator-engine.js';
import { SavedStateRefusedError } from './simulator-saved-state.js';
import { DEFAULT_BOOK_ORDERS, type SimulatorSettings } from './simulator.types.js';

const MANIFEST = 'simulator.json';
const HOUR_MS = 3_600_000;
/**
 * The least wall time between two saved states. Saving costs the simulator's thread about 0.2 s; a
 * restart replays from the newest saved state, at about 1 s an exchange hour. Live, a state is saved
 * every exchange hour; catching up, every few seconds of it, not every hour generated.
 */
export const SAVE_STATE_EVERY_MS = 5_000;
/**
 * Version of what the simulator writes for given settings. A change that makes the same settings give
 * other lines bumps it, so a directory written before is refused instead of continued with lines that
 * do not follow its own. 2: resting order books (makers' ladders, users' limit orders).
 */
export const SIMULATOR_FORMAT = 2;

/** What a simulator directory was made with, and how far its lines go. */
interface Manifest {
  /** Absent in directories written before formats were recorded (format 1). */
  format?: number;
  settings: SimulatorSettings;
  /** Every block up to this exchange time (epoch ms) is in the files. */
  writtenUntilMs: number;
  /** The newest saved state of the simulator (a file of this directory), at or before `writtenUntilMs`. */
  savedState?: { file: string; reachedMs: number };
}

export class SimulatorSettingsChangedError extends Error {}

export interface SimulatorDirectoryOptions {
  /** Starts a new simulation whatever the directory holds. */
  discardExisting?: boolean;
  /** Where the simulator runs; in this thread unless told (WorkerSimulatorEngine runs it on its own core). */
  engine?: (settings: SimulatorSettings) => SimulatorEngine;
  /**
   * Exchange times, within what the files hold, whose books the replay keeps (`replayedStates`): state
   * updates a stopped process owed for blocks it had written.
   */
  statesAt?: (written: { startTimeMs: number; writtenUntilMs: number }) => number[];
  /** Why the saved state was not used (the simulation is then replayed from its start). */
  onSavedStateRefused?: (reason: string) => void;
  /** The least wall time between two saved states; SAVE_STATE_EVERY_MS unless told. */
  saveStateEveryMs?: number;
}

/**
 * The simulator's hl-node data directory: the simulator writes its lines here and the ingestor reads
 * them back through the node feed, so the real reader and parser are what run. The manifest records
 * the settings and how far the files go, and names the newest saved state of the simulator (its books,
 * wallets and random generator at an exchange hour; simulator-saved-state.ts): a restart restores it and
 * replays the blocks after it (it is deterministic) up to where the files go, without writing them again.
 * Without a usable saved state, the restart replays the simulation from its start.
 *
 * The saved state is a file here rather than a row in Postgres: it describes these files, not the
 * database (which may be behind them, or be dropped and refilled from them), and goes with them when the
 * directory is deleted or moved; and a megabyte or two an hour stays out of the database's WAL.
 */
export class SimulatorDirectory {
  /** Exchange time the spans asked for so far reach (ahead of the files while spans are in flight). */
  private plannedUntilMs: number;
  /** Wall time the last saved state was asked for, and the exchange time it is at. */
  private savedAskedAt = Number.NEGATIVE_INFINITY;
  private savedUntilMs: number;

  private constructor(
    readonly dir: string,
    readonly engine: SimulatorEngine,
    private manifest: Manifest,
    /** The books at the times `statesAt` asked for, in time order, taken as the simulation was replayed. */
    readonly replayedStates: ExchangeState[],
    /** Exchange time the opening replay started from: the saved state's, else the simulation's start. */
    readonly replayedFromMs: number,
    private readonly saveStateEveryMs: number,
  ) {
    this.plannedUntilMs = manifest.writtenUntilMs;
    this.savedUntilMs = manifest.savedState?.reachedMs ?? manifest.settings.startTimeMs;
  }

  /**
   * Opens (or creates) the directory for these settings; `startTimeMs` is only used for a new one. A
   * directory made with other settings is refused: its files would not continue these.
   */
  static async open(
    dir: string,
    requested: SimulatorSettings,
    onReplay?: (doneMs: number, totalMs: number) => void,
    {
      discardExisting = false,
      engine = (s) => new InProcessSimulatorEngine(s),
      statesAt,
      onSavedStateRefused,
      saveStateEveryMs = SAVE_STATE_EVERY_MS,
    }: SimulatorDirectoryOptions = {},
  ): Promise<SimulatorDirectory> {
    if (discardExisting) await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    // The default is recorded as a value, so a directory made with it is refused if the default changes.
    const settings: SimulatorSettings = { ...requested, bookOrders: requested.bookOrders ?? DEFAULT_BOOK_ORDERS };
    const stored = await readManifest(dir);
    if (stored && (stored.format ?? 1) !== SIMULATOR_FORMAT) {
      throw new SimulatorSettingsChangedError(
        `${dir} holds a simulation written by simulator format ${stored.format ?? 1}; this simulator writes format ${SIMULATOR_FORMAT}, ` +
          'whose lines would not continue it: delete the directory and the database to start a new one',
      );
    }
    if (stored) {
      const { startTimeMs: _ignored, ...wanted } = settings;
      const { startTimeMs: storedStart, ...had } = stored.settings;
      if (JSON.stringify(sortKeys(had)) !== JSON.stringify(sortKeys(wanted))) {
        throw new SimulatorSettingsChangedError(
          `${dir} holds a simulation made with ${JSON.stringify(had)}, not ${JSON.stringify(wanted)}: ` +
            'restore the settings, or delete the directory and the database to start a new one',
        );
      }
      await cutUnfinishedLines(dir);
      const running = engine({ ...stored.settings, startTimeMs: storedStart });
      const owed = statesAt?.({ startTimeMs: storedStart, writtenUntilMs: stored.writtenUntilMs }) ?? [];
      const from = await resume(dir, stored, running, owed).catch((error: Error) => {
        onSavedStateRefused?.(error.message);
        return storedStart;
      });
      // Replays in hour-long steps so a long history can report progress.
      const states = await running.skip(stored.writtenUntilMs, (nowMs) => onReplay?.(nowMs - from, stored.writtenUntilMs - from), owed);
      return new SimulatorDirectory(dir, running, stored, states, from, saveStateEveryMs);
    }
    const manifest: Manifest = { format: SIMULATOR_FORMAT, settings, writtenUntilMs: settings.startTimeMs };
    await writeManifest(dir, manifest);
    return new SimulatorDirectory(dir, engine(settings), manifest, [], settings.startTimeMs, saveStateEveryMs);
  }

  get writtenUntilMs(): number {
    return this.manifest.writtenUntilMs;
  }

  get startTimeMs(): number {
    return this.manifest.settings.startTimeMs;
  }

  /** Exchange time the spans asked for reach: where the next span starts. */
  get generatedUntilMs(): number {
    return this.plannedUntilMs;
  }

  /** Writes every block up to `untilMs` and records it; the number of lines. */
  async advance(untilMs: number): Promise<number> {
    if (untilMs <= this.plannedUntilMs) return 0;
    return this.write(await this.generate(untilMs, false));
  }

  /**
   * Asks the engine for the blocks after the last span asked for up to `untilMs` (and the books at its
   * end with `withState`). Spans may be asked for ahead, then must be written in the same order.
   *
   * The simulator's state goes with the first span to reach an exchange hour, at most every
   * `saveStateEveryMs` of wall time; and with a span that ends where the caller is going (`lastPlanned`:
   * the end of a catch-up, or live) an hour or more after the last one saved.
   */
  generate(untilMs: number, withState: boolean, lastPlanned = false): Promise<GeneratedSpan> {
    if (untilMs <= this.plannedUntilMs) throw new Error(`span to ${untilMs} asked for after one to ${this.plannedUntilMs}`);
    const newHour = Math.floor(untilMs / HOUR_MS) > Math.floor(this.plannedUntilMs / HOUR_MS);
    const save =
      (newHour && Date.now() - this.savedAskedAt >= this.saveStateEveryMs) || (lastPlanned && untilMs - this.savedUntilMs >= HOUR_MS);
    if (save) [this.savedAskedAt, this.savedUntilMs] = [Date.now(), untilMs];
    this.plannedUntilMs = untilMs;
    return this.engine.generate(untilMs, withState, save);
  }

  /**
   * Appends a span's lines to their hourly files, writes its saved state, and records how far they go.
   * A crash before the manifest leaves lines that a restart writes again; the feed never delivers a block
   * number twice, so they are ignored. A crash during an append can also leave a line cut short, which
   * `open` cuts off (cutUnfinishedLines). The manifest names a saved state only once it is whole.
   */
  async write(span: GeneratedSpan): Promise<number> {
    for (const { path, bytes } of span.files) {
      const file = join(this.dir, path);
      await mkdir(dirname(file), { recursive: true });
      await appendFile(file, bytes);
    }
    const previous = this.manifest.savedState;
    let savedState = previous;
    if (span.saved) {
      savedState = { file: `simulator-state-${span.untilMs}.bin`, reachedMs: span.untilMs };
      await writeWhole(join(this.dir, savedState.file), span.saved);
    }
    this.manifest = { ...this.manifest, writtenUntilMs: span.untilMs, savedState };
    await writeManifest(this.dir, this.manifest);
    if (previous && previous.file !== savedState?.file) await rm(join(this.dir, previous.file), { force: true });
    return span.lines;
  }

  close(): Promise<void> {
    return this.engine.close();
  }

  /**
   * Deletes the hourly files each stream has read past (older than the file its checkpoint names), so
   * a long-running simulation does not fill the disk. Streams without a checkpoint keep everything.
   */
  async prune(readingFiles: Partial<Record<NodeStream, string>>): Promise<number> {
    let removed = 0;
    for (const stream of NODE_STREAMS) {
      const current = readingFiles[stream] ? parseHourlyName(readingFiles[stream]!) : null;
      if (!current) continue;
      const streamDir = join(this.dir, stream);
      const dates = new Set<string>();
      for (const file of await listHourlyFiles(streamDir)) {
        if (compareHourlyFiles(file, current) >= 0) break;
        await rm(join(streamDir, 'hourly', file.name), { force: true });
        dates.add(file.date);
        removed++;
      }
      for (const date of dates) if (date < current.date) await rmdir(join(streamDir, 'hourly', date)).catch(() => undefined);
    }
    return removed;
  }
}

/**
 * Restores the directory's saved state into the engine; the exchange time it reached, from where the
 * replay goes on. Refused (thrown, with the reason) when there is none, when it cannot be read or
 * restored, or when an owed state update's books come before it.
 */
async function resume(dir: string, stored: Manifest, engine: SimulatorEngine, owed: readonly number[]): Promise<number> {
  const saved = stored.savedState;
  if (!saved) throw new SavedStateRefusedError('the directory holds no saved state of the simulator yet');
  const before = owed.find((t) => t < saved.reachedMs);
  if (before !== undefined)
    throw new SavedStateRefusedError(
      `a state update owed at ${new Date(before).toISOString()} comes before the saved state (${new Date(saved.reachedMs).toISOString()})`,
    );
  let bytes: Buffer;
  try {
    bytes = await readFile(join(dir, saved.file));
  } catch (error) {
    throw new SavedStateRefusedError(`${saved.file} cannot be read: ${(error as Error).message}`);
  }
  return engine.restore(bytes);
}

async function readManifest(dir: string): Promise<Manifest | null> {
  try {
    return JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as Manifest;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Cuts off the unfinished last line of each stream's newest hourly file: what a crash during `write`'s
 * append leaves. Appended to, the restart's first line would run on from it into one line that is not
 * JSON, and when that is the only copy of its block (the span's first line in the file), the block is lost.
 * The feed never takes a line without its newline from the newest file (node-stream.reader.ts), so nothing
 * read is cut.
 */
async function cutUnfinishedLines(dir: string): Promise<void> {
  for (const stream of NODE_STREAMS) {
    const newest = (await listHourlyFiles(join(dir, stream))).at(-1);
    if (!newest) continue;
    const handle = await open(join(dir, stream, 'hourly', newest.name), 'r+');
    try {
      const size = (await handle.stat()).size;
      const end = await endOfLastLine(handle, size);
      if (end < size) await handle.truncate(end);
    } finally {
      await handle.close();
    }
  }
}

/** The offset just after the file's last newline (0 without one), read backwards from `size`. */
async function endOfLastLine(handle: FileHandle, size: number): Promise<number> {
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (let to = size; to > 0;) {
    const from = Math.max(0, to - buffer.length);
    const { bytesRead } = await handle.read(buffer, 0, to - from, from);
    const newline = buffer.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (newline !== -1) return from + newline + 1;
    to = from;
  }
  return 0;
}

async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  await writeWhole(join(dir, MANIFEST), JSON.stringify(manifest, null, 2));
}

/** Written beside and renamed over, so a crash never leaves half a file. */
async function writeWhole(path: string, content: string | Uint8Array): Promise<void> {
  await writeFile(`${path}.tmp`, content);
  await rename(`${path}.tmp`, path);
}

function sortKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}
