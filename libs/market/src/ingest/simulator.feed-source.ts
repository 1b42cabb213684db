import type { JsonLogger, ProgressBar } from '#runtime';
import { CatchUpVacuum } from './catch-up-vacuum.js';
import { FeedRefusedError, FeedSource, type FeedStep } from './feed-source.js';
import {
  SIMULATOR_SOURCE,
  SimulatedExchangeIngestion,
  type SimulationChunk,
  type SimulationOptions,
} from './simulated-exchange.ingestion.js';

/** The live pace: once a chunk has reached the clock, the next waits this long. */
export const LIVE_TICK_MS = 1_000;

export interface SimulatorFeedOptions extends SimulationOptions {
  /** Exchange time per wall-clock time once the backfill is done (SIM_SPEED): 1 is real time. */
  speed: number;
  /** Draws the replay's and the backfill's progress (the ingestor's bars on stderr); none unless given. */
  progress?: (label: string) => ProgressBar;
  /** The wall clock (Date.now unless given). */
  clock?: () => number;
}

/**
 * Live, whether the next chunk should follow at once: the chunk stopped short of the clock (at a
 * state-update boundary or an hour). Caught up with it, the next waits a tick (LIVE_TICK_MS): asked again
 * at once, a chunk would hold the few milliseconds of exchange time that passed meanwhile, often not one
 * block, and still cost a write, a read of every stream's files and a prune; in a loop that kept most of a
 * core busy for nothing.
 */
export function behindTheClock(chunk: SimulationChunk | null, targetMs: number): boolean {
  return chunk !== null && chunk.untilMs < targetMs;
}

/**
 * EXCHANGE_SOURCE=simulator (the default): backfills the history up to now as fast as it can, with a
 * progress bar and a vacuum of the churned tables every so often, then runs live with exchange time moving
 * `speed` times as fast as the wall clock. The catch-up pipeline (read-ahead, overlapped reading and state
 * updates, groups, deferred tables) is SimulatedExchangeIngestion's, behind this adapter.
 */
export class SimulatorFeedSource extends FeedSource {
  readonly name = SIMULATOR_SOURCE;
  readonly idleMs = LIVE_TICK_MS;
  private readonly clock: () => number;
  private backfillEndMs = 0;
  /** When the backfill ended on the wall clock; null while backfilling. */
  private liveSinceMs: number | null = null;
  private fills = 0;
  private bar?: ProgressBar;

  constructor(
    private readonly simulation: SimulatedExchangeIngestion,
    private readonly vacuum: CatchUpVacuum,
    private readonly options: SimulatorFeedOptions,
    private readonly logger: JsonLogger,
  ) {
    super();
    this.clock = options.clock ?? Date.now;
  }

  /**
   * Restores the simulator's saved state in the directory and replays the blocks after it (without one,
   * the simulation from its seed); settings that do not match the directory are refused.
   */
  async open(): Promise<Record<string, unknown>> {
    const { dataDir, settings } = this.options;
    const replay = this.options.progress?.('simulator replay  ');
    const reached = await this.simulation
      .open(
        this.options,
        this.clock(),
        (done, total) => replay?.update(done / total, 'rebuilding the simulated exchange'),
        (reason) => this.logger.write('warn', "simulator's saved state not used: replaying the simulation from its start", { reason }),
      )
      .catch((error: Error) => {
        // A failure to open is final, as it has always been here: settings that do not match the directory never will.
        throw new FeedRefusedError(error.message, { cause: error });
      });
    this.backfillEndMs = Math.max(this.clock(), reached);
    this.bar = this.options.progress?.('simulator backfill');
    return {
      dataDir,
      seed: settings.seed,
      wallets: settings.wallets,
      replayedFrom: new Date(this.simulation.replayedFromMs).toISOString(),
      reachedAt: new Date(reached).toISOString(),
    };
  }

  async step(): Promise<FeedStep> {
    if (this.liveSinceMs === null) return this.backfillStep();
    const targetMs = this.backfillEndMs + (this.clock() - this.liveSinceMs) * this.options.speed;
    const chunk = await this.simulation.step(targetMs);
    return this.stepOf(chunk, behindTheClock(chunk, targetMs));
  }

  private async backfillStep(): Promise<FeedStep> {
    const chunk = await this.simulation.step(this.backfillEndMs);
    if (chunk === null) {
      this.bar?.done(this.reached(this.backfillEndMs), { done: this.fills, unit: 'fills' });
      this.logger.write('info', 'simulator backfill done; running live', { speed: this.options.speed });
      this.liveSinceMs = this.clock();
      return { more: true, stored: null, issues: [], states: [] };
    }
    const step = this.stepOf(chunk, true);
    this.vacuum.chunkStored((error) => this.logger.write('warn', 'catch-up vacuum failed', { error: error.message }));
    const from = this.simulation.startTimeMs;
    this.bar?.update((chunk.untilMs - from) / (this.backfillEndMs - from), this.reached(chunk.untilMs), {
      done: this.fills,
      unit: 'fills',
    });
    return step;
  }

  private stepOf(chunk: SimulationChunk | null, more: boolean): FeedStep {
    if (chunk === null) return { more, stored: null, issues: [], states: [] };
    this.fills += chunk.fills;
    const { blocks, lines, fills, issues, states } = chunk;
    return { more, stored: blocks > 0 ? { blocks, lines, fills } : null, issues, states };
  }

  /** The progress detail: exchange time reached and fills so far. */
  private reached(untilMs: number): string {
    return `${new Date(untilMs).toISOString().slice(0, 16)}Z, ${this.fills.toLocaleString('en')} fills`;
  }

  /** Stores the chunk read ahead and lets the state updates under way commit, so everything in the files is stored. */
  async close(): Promise<void> {
    await Promise.all([this.simulation.close(), this.vacuum.settle()]);
  }
}
