import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  SimulatorDirectory,
  type GeneratedSpan,
  type NodeStream,
  type SimulatorEngine,
  type ParseIssue,
  type SimulatorSettings,
  type ExchangeState,
} from '#exchange';
import type { FeedBlock } from '../facts/exchange-facts.types.js';
import { FeedCheckpointRepository } from '../facts/feed-checkpoint.repository.js';
import { MarketStateWriter, type StateUpdateResult } from '../state/market-state.writer.js';
import { StateUpdatesRepository } from '../state/state-updates.repository.js';
import { NodeDirectoryIngestion } from './node-directory.ingestion.js';

export const SIMULATOR_SOURCE = 'simulator';
const HOUR_MS = 3_600_000;
const BLOCKS_PER_STREAM_PER_BATCH = 2_000;
/**
 * Chunks asked of the simulator ahead of the one being stored. With an engine on another thread they are
 * made while this one stores; the bound keeps the memory of the lines waiting to be written small.
 */
const CATCH_UP_READ_AHEAD = 4;
/**
 * Up to this many boundaries' updates that later planned boundaries follow are applied together, in one
 * transaction (MarketStateWriter.applyGroup): two hours of them, one commit for them all. Until a group is
 * applied its updates are held here; the last boundary planned, and every live one, is applied at once,
 * and a stop applies what is held. A group that fails is held again and retried; one a crash cut short is
 * replayed from the simulator on the next start (`open`), as is every update held then.
 */
export const CATCH_UP_STATE_GROUP = 8;

export interface SimulationOptions {
  dataDir: string;
  settings: Omit<SimulatorSettings, 'startTimeMs'>;
  /** Where a new simulation starts: this much history before `nowMs`, at a whole hour. */
  backfillDays: number;
  /** Exchange time between state updates. */
  stateIntervalMs: number;
  /** Where the simulator runs (SimulatorDirectory's default: this thread; the ingestor's: a worker thread). */
  engine?: (settings: SimulatorSettings) => SimulatorEngine;
}

/** A chunk asked of the simulator, to be written and stored in turn. */
interface PlannedChunk {
  untilMs: number;
  boundary: boolean;
  span: Promise<GeneratedSpan>;
}

/** A chunk whose lines are in the files and read from them, not stored yet. */
interface ReadChunk {
  untilMs: number;
  lines: number;
  batches: FeedBlock[][];
  issues: ParseIssue[];
  /** The boundaries' states whose blocks this chunk's reading reached, in height order: held once it is stored. */
  states: ExchangeState[];
}

export interface SimulationChunk {
  /** Exchange time reached (the last block's time is at or before it). */
  untilMs: number;
  lines: number;
  /** Blocks read from the lines and stored (those already stored are skipped). */
  blocks: number;
  fills: number;
  issues: ParseIssue[];
  /** The state updates that committed since the previous call, in height order. */
  states: StateUpdateResult[];
}

/**
 * The embedded exchange: the simulator writes hl-node lines into its directory, the node feed reads
 * them back into Postgres (source `simulator`), and at every state-update boundary of exchange time
 * the simulator's books become a state update. Each chunk is written, ingested and (at a boundary)
 * applied in order, so a state update always sees the facts before it. A catch-up runs as a pipeline
 * (docs/architecture.md, "The simulated catch-up"), with the same result as one chunk at a time:
 *
 * - The simulator makes the next CATCH_UP_READ_AHEAD chunks meanwhile (on a worker thread in the
 *   ingestor): their lines reach the files only when their chunk's turn comes.
 * - The next chunk's lines are written and read (parsed) while this one's facts are stored: the feed's
 *   parsing on this thread overlaps Postgres's work. Each chunk is still stored in its own transactions,
 *   in order, and reported by its own call.
 * - A boundary's state update is applied while the next chunk is stored, on another connection: its
 *   queries read facts only up to the state's time, and the next chunk's facts are all later. It is
 *   reported by the call that stores that next chunk (or, caught up, by the call after).
 * - The updates of boundaries that later planned boundaries follow are held and applied in groups
 *   (CATCH_UP_STATE_GROUP), and leave the tables holding only the newest update's figures (wallet
 *   rankings, PnL periods) to the last of the catch-up (MarketStateWriter's `laterUpdateFollows`). Live,
 *   no later boundary is planned: every update is applied at once, on its own, and writes every table.
 */
@Injectable()
export class SimulatedExchangeIngestion {
  private directory?: SimulatorDirectory;
  private options?: SimulationOptions;
  private ahead: PlannedChunk[] = [];
  /** The next chunk, already written and read. */
  private nextRead: ReadChunk | null = null;
  /** State updates being applied, and whether that has ended. */
  private applying: { updates: Promise<StateUpdateResult[]>; ended: boolean } | null = null;
  /** Boundaries' states held for the next group. */
  private group: ExchangeState[] = [];
  /**
   * Boundaries' states whose blocks are in the files but were not read into a chunk since (a reading
   * dropped after a failure, or a restart's replay): the next chunk read takes them.
   */
  private owed: ExchangeState[] = [];
  /** The files may hold lines not stored (after a start or a failure): read them even when nothing is planned. */
  private reread = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly nodeIngestion: NodeDirectoryIngestion,
    private readonly stateWriter: MarketStateWriter,
    private readonly checkpoints: FeedCheckpointRepository,
    private readonly stateUpdates: StateUpdatesRepository,
  ) {}

  /**
   * Opens the simulation (replaying an existing one); returns the exchange time its files reach. A
   * database that has read nothing of the simulation (new, or dropped to start over) starts a new one:
   * the directory's read files are pruned, so its old simulation could not be read into it again.
   *
   * The state updates a stopped process owed are derived again: every boundary the files reach after the
   * newest applied update. The replay takes their books on its way, and they go with the first chunk read,
   * which reads every line the files hold past the stored checkpoints: a process killed anywhere (between a
   * chunk's commit and its boundary's update, inside a group's transaction, with updates held) ends as an
   * uninterrupted one.
   */
  async open(
    options: SimulationOptions,
    nowMs: number,
    onReplay?: (doneMs: number, totalMs: number) => void,
    onSavedStateRefused?: (reason: string) => void,
  ): Promise<number> {
    const startTimeMs = Math.floor((nowMs - options.backfillDays * 24 * HOUR_MS) / HOUR_MS) * HOUR_MS;
    const discardExisting = (await this.checkpoints.read(this.dataSource, SIMULATOR_SOURCE)).size === 0;
    await this.close();
    const applied = await this.stateUpdates.newest(this.dataSource);
    this.directory = await SimulatorDirectory.open(options.dataDir, { ...options.settings, startTimeMs }, onReplay, {
      discardExisting,
      engine: options.engine,
      statesAt: (written) => owedBoundaries(written, applied?.timeMs ?? null, options.stateIntervalMs),
      onSavedStateRefused,
    });
    this.options = options;
    this.owed = this.directory.replayedStates.filter((state) => applied === null || state.height > applied.height);
    this.reread = true;
    return this.directory.writtenUntilMs;
  }

  get startTimeMs(): number {
    return this.opened().directory.startTimeMs;
  }

  /** Exchange time the opening replay started from: the simulator's saved state's, else the simulation's start. */
  get replayedFromMs(): number {
    return this.opened().directory.replayedFromMs;
  }

  /**
   * The next chunk towards `untilMs`: up to the next state-update boundary or an hour, whichever is first;
   * null when there is nothing left to store or report.
   */
  async step(untilMs: number): Promise<SimulationChunk | null> {
    const { directory } = this.opened();
    this.plan(untilMs);
    let next = this.nextRead;
    this.nextRead = null;
    if (!next && this.ahead[0]) next = await this.writeAndRead(this.ahead[0], untilMs);
    // Nothing more planned, but lines written before may be unread (a restart at the end of a catch-up).
    else if (!next && this.reread) next = await this.readFiles(directory.writtenUntilMs, 0);
    if (!next) {
      if (!this.applying && this.group.length === 0) return null;
      const states = await this.applied(true);
      const held = await this.applyHeld();
      return { untilMs: directory.writtenUntilMs, lines: 0, blocks: 0, fills: 0, issues: [], states: [...states, ...held] };
    }
    // The chunk after this one is written and parsed while Postgres stores this one's facts.
    return this.storeRead(next, () => (this.ahead[0] ? this.writeAndRead(this.ahead[0], untilMs) : Promise.resolve(null)));
  }

  /**
   * Stores a chunk that is written and read, while `readNext` writes and reads the one after it (kept
   * for the next call); holds the chunk's boundary states, applies a group when it is due, and prunes the
   * files read. A failed group is thrown only once this chunk's facts and the one read ahead are in hand.
   */
  private async storeRead(next: ReadChunk, readNext: () => Promise<ReadChunk | null>): Promise<SimulationChunk> {
    const { directory } = this.opened();
    const blocks = next.batches.reduce((n, batch) => n + batch.length, 0);
    const chunk: SimulationChunk = { untilMs: next.untilMs, lines: next.lines, blocks, fills: 0, issues: [...next.issues], states: [] };
    const storing = this.store(next.batches, chunk);
    const [stored, read] = await Promise.allSettled([storing, readNext()]);
    if (stored.status === 'rejected') {
      // What was read ahead is dropped with this chunk: both are read again from the stored checkpoints,
      // and their boundaries' states go with the chunk that reads them again.
      this.dropReading([...next.states, ...(read.status === 'fulfilled' ? (read.value?.states ?? []) : [])]);
      throw stored.reason;
    }
    let groupFailure: { error: unknown } | null = null;
    const report = async (wait: boolean) => {
      try {
        chunk.states.push(...(await this.applied(wait)));
      } catch (error) {
        groupFailure ??= { error };
      }
    };
    // Updates committed meanwhile are reported; a group being applied goes on beside the next chunks.
    await report(false);
    if (next.states.length > 0) {
      this.group.push(...next.states);
      const laterUpdateFollows = this.boundaryPlanned(read.status === 'fulfilled' ? read.value : null);
      if (!laterUpdateFollows || this.group.length >= CATCH_UP_STATE_GROUP) {
        // Updates apply in height order: the ones before must have committed before the next start.
        await report(true);
        // After a failure the runner waits before the next step; the group held is tried again then.
        if (groupFailure === null) this.startGroup(laterUpdateFollows);
      }
    }
    // This chunk is stored; the next one's lines, if their reading failed, are read again from the checkpoints.
    if (read.status === 'fulfilled') this.nextRead = read.value;
    else this.dropReading([]);
    await directory.prune(await this.readingFiles());
    if (read.status === 'rejected') throw read.reason;
    if (groupFailure !== null) throw (groupFailure as { error: unknown }).error;
    return chunk;
  }

  /** Drops what was read and not stored: read again from the stored checkpoints, with these states. */
  private dropReading(states: ExchangeState[]): void {
    this.nodeIngestion.forget(this.opened().directory.dir, SIMULATOR_SOURCE);
    this.owed = [...states, ...this.owed].sort((a, b) => a.height - b.height);
    this.reread = true;
  }

  /**
   * Writes a planned chunk's lines into the files and reads them back through the node feed (every block
   * up to the end of the files). Once written it leaves the plan, and its boundary's state is owed to the
   * chunk that reads its lines: a failure from there on is retried from the stored checkpoints.
   */
  private async writeAndRead(planned: PlannedChunk, untilMs: number): Promise<ReadChunk> {
    const { directory } = this.opened();
    const span = await planned.span;
    const lines = await directory.write(span);
    this.ahead.shift();
    if (planned.boundary) this.owed.push(span.state!);
    this.reread = true;
    this.plan(untilMs);
    return this.readFiles(planned.untilMs, lines);
  }

  /** Reads every block past what this process has read, to the end of the files: a chunk with the states owed. */
  private async readFiles(untilMs: number, lines: number): Promise<ReadChunk> {
    const { directory } = this.opened();
    const read: ReadChunk = { untilMs, lines, batches: [], issues: [], states: [] };
    try {
      for (;;) {
        const step = await this.nodeIngestion.read(directory.dir, BLOCKS_PER_STREAM_PER_BATCH, SIMULATOR_SOURCE);
        read.issues.push(...step.issues);
        if (step.batch.length > 0) read.batches.push(step.batch);
        // Fewer blocks than one stream may give: no stream stopped at its limit, so every one read to the end
        // of the lines just written, and another read would find nothing.
        if (step.batch.length < BLOCKS_PER_STREAM_PER_BATCH) break;
      }
    } catch (error) {
      // The batches read so far are dropped with the rest: read again from the stored checkpoints.
      this.dropReading([]);
      throw error;
    }
    read.states = this.owed.splice(0);
    this.reread = false;
    return read;
  }

  /** Stores a read chunk's batches in order, one transaction each. */
  private async store(batches: FeedBlock[][], chunk: SimulationChunk): Promise<void> {
    const { directory } = this.opened();
    for (const batch of batches) chunk.fills += (await this.nodeIngestion.store(directory.dir, batch, SIMULATOR_SOURCE))?.fills ?? 0;
  }

  /** Whether a boundary after the chunk being stored is read or planned: its state update will follow. */
  private boundaryPlanned(read: ReadChunk | null): boolean {
    return (read?.states.length ?? 0) > 0 || this.ahead.some((chunk) => chunk.boundary);
  }

  /**
   * Starts applying the next group held (CATCH_UP_STATE_GROUP at most; a later update follows while more
   * are held). Should it fail, its states are held again, before those held since, and `applied` throws.
   */
  private startGroup(laterUpdateFollows: boolean): void {
    const states = this.group.splice(0, CATCH_UP_STATE_GROUP);
    const updates = this.stateWriter.applyGroup(states, { laterUpdateFollows: laterUpdateFollows || this.group.length > 0 });
    const entry = { updates, ended: false };
    // Runs before `applied` sees the outcome; a failure meanwhile must not count as unhandled.
    updates.then(
      () => (entry.ended = true),
      () => {
        this.group.unshift(...states);
        entry.ended = true;
      },
    );
    this.applying = entry;
  }

  /** The updates held for a group that no later boundary will complete (caught up, or stopping). */
  private async applyHeld(): Promise<StateUpdateResult[]> {
    const results: StateUpdateResult[] = [];
    while (this.group.length > 0) {
      this.startGroup(false);
      results.push(...(await this.applied(true)));
    }
    return results;
  }

  /**
   * The results of the updates being applied, once they have committed (`wait`: waiting for that; else
   * none while they are still being applied). A failure is thrown to the caller, as the chunk's.
   */
  private async applied(wait: boolean): Promise<StateUpdateResult[]> {
    if (this.applying === null || (!wait && !this.applying.ended)) return [];
    const { updates } = this.applying;
    this.applying = null;
    return updates;
  }

  /**
   * Lets a state update being applied finish and stops the simulator's engine (a worker thread); chunks
   * asked for and not written are dropped.
   */
  async close(): Promise<void> {
    const readAhead = this.nextRead;
    this.nextRead = null;
    // Nothing planned is written after a stop, so the update stored below writes every table.
    for (const { span } of this.ahead.splice(0)) span.catch(() => undefined);
    if (readAhead !== null && this.directory) {
      // A stop finishes the chunk in progress, and the one read ahead is in the files too: it is stored,
      // with its state update, so everything written is stored. Should that fail, it is read again from the
      // stored checkpoints after a reopen.
      await this.storeRead(readAhead, () => Promise.resolve(null)).catch(() =>
        this.nodeIngestion.forget(this.directory!.dir, SIMULATOR_SOURCE),
      );
    }
    await this.applying?.updates.catch(() => undefined);
    this.applying = null;
    await this.applyHeld().catch(() => undefined);
    // What is still owed or held is derived again by the next open's replay.
    this.group = [];
    this.owed = [];
    const directory = this.directory;
    this.directory = undefined;
    await directory?.close();
  }

  /**
   * Asks for the chunks towards `untilMs` until CATCH_UP_READ_AHEAD wait beyond the next one: each up to
   * the next state-update boundary or an hour, whichever is first.
   */
  private plan(untilMs: number): void {
    const { directory, options } = this.opened();
    while (this.ahead.length <= CATCH_UP_READ_AHEAD) {
      const from = directory.generatedUntilMs;
      if (untilMs <= from) return;
      const boundary = (Math.floor(from / options.stateIntervalMs) + 1) * options.stateIntervalMs;
      const end = Math.min(untilMs, boundary, from + HOUR_MS);
      const span = directory.generate(end, end === boundary, end === untilMs);
      // Awaited in its turn; a failure of one asked for ahead must not count as unhandled meanwhile.
      span.catch(() => undefined);
      this.ahead.push({ untilMs: end, boundary: end === boundary, span });
    }
  }

  private async readingFiles(): Promise<Partial<Record<NodeStream, string>>> {
    const stored = await this.checkpoints.read(this.dataSource, SIMULATOR_SOURCE);
    return Object.fromEntries([...stored].map(([stream, position]) => [stream, (position as { file?: string }).file]));
  }

  private opened(): { directory: SimulatorDirectory; options: SimulationOptions } {
    if (!this.directory || !this.options) throw new Error('the simulation is not open');
    return { directory: this.directory, options: this.options };
  }
}

/**
 * The state-update boundaries (multiples of the interval) in the files, after the one of the newest
 * applied update (its state time is its boundary's last block, at or before it): the updates owed.
 */
function owedBoundaries(
  { startTimeMs, writtenUntilMs }: { startTimeMs: number; writtenUntilMs: number },
  appliedTimeMs: number | null,
  intervalMs: number,
): number[] {
  const from = appliedTimeMs === null ? startTimeMs : Math.max(startTimeMs, Math.ceil(appliedTimeMs / intervalMs) * intervalMs);
  const boundaries: number[] = [];
  for (let at = (Math.floor(from / intervalMs) + 1) * intervalMs; at <= writtenUntilMs; at += intervalMs) boundaries.push(at);
  return boundaries;
}
