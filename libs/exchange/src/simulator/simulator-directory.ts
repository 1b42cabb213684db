import { mkdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compareHourlyFiles, listHourlyFiles, parseHourlyName } from '../node-feed/hourly-files.js';
import { NODE_STREAMS, type NodeStream } from '../node/node-block.types.js';
import { writeHlNodeLines } from './hl-node-writer.js';
import { HyperliquidSimulator } from './simulator.js';
import { DEFAULT_BOOK_ORDERS, type SimulatorSettings } from './simulator.types.js';

const MANIFEST = 'simulator.json';
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
}

export class SimulatorSettingsChangedError extends Error {}

/**
 * The simulator's hl-node data directory: the simulator writes its lines here and the ingestor reads
 * them back through the node feed, so the real reader and parser are what run. The manifest records
 * the settings and how far the files go. The simulator's books are not stored: on a restart the same
 * settings replay the same blocks (it is deterministic) up to that point, without writing them again.
 */
export class SimulatorDirectory {
  private constructor(
    readonly dir: string,
    readonly simulator: HyperliquidSimulator,
    private manifest: Manifest,
  ) {}

  /**
   * Opens (or creates) the directory for these settings; `startTimeMs` is only used for a new one. A
   * directory made with other settings is refused: its files would not continue these.
   * `discardExisting` starts a new simulation whatever the directory holds.
   */
  static async open(
    dir: string,
    requested: SimulatorSettings,
    onReplay?: (doneMs: number, totalMs: number) => void,
    { discardExisting = false }: { discardExisting?: boolean } = {},
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
      const simulator = new HyperliquidSimulator({ ...stored.settings, startTimeMs: storedStart });
      // Replays in hour-long steps so a long history can report progress.
      const from = simulator.nowMs;
      while (simulator.nowMs < stored.writtenUntilMs) {
        const target = Math.min(stored.writtenUntilMs, simulator.nowMs + 3_600_000);
        for (const _line of simulator.run(target)) void _line;
        onReplay?.(simulator.nowMs - from, stored.writtenUntilMs - from);
        if (target === stored.writtenUntilMs) break;
      }
      return new SimulatorDirectory(dir, simulator, stored);
    }
    const manifest: Manifest = { format: SIMULATOR_FORMAT, settings, writtenUntilMs: settings.startTimeMs };
    await writeManifest(dir, manifest);
    return new SimulatorDirectory(dir, new HyperliquidSimulator(settings), manifest);
  }

  get writtenUntilMs(): number {
    return this.manifest.writtenUntilMs;
  }

  get startTimeMs(): number {
    return this.manifest.settings.startTimeMs;
  }

  /**
   * Writes every block up to `untilMs` and records it. A crash between the two leaves lines that a
   * restart writes again; the feed never delivers a block number twice, so they are ignored.
   */
  async advance(untilMs: number): Promise<number> {
    if (untilMs <= this.manifest.writtenUntilMs) return 0;
    const written = await writeHlNodeLines(this.dir, this.simulator.run(untilMs));
    this.manifest = { ...this.manifest, writtenUntilMs: untilMs };
    await writeManifest(this.dir, this.manifest);
    return written;
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

async function readManifest(dir: string): Promise<Manifest | null> {
  try {
    return JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as Manifest;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Written beside and renamed over, so a crash never leaves half a manifest. */
async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  const temporary = join(dir, `${MANIFEST}.tmp`);
  await writeFile(temporary, JSON.stringify(manifest, null, 2));
  await rename(temporary, join(dir, MANIFEST));
}

function sortKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)));
}
