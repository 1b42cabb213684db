import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#config';
import { formatIssue, WorkerSimulatorEngine } from '#exchange';
import { CATCH_UP_READ_AHEAD, CATCH_UP_STATE_GROUP, CatchUpVacuum, SimulatedExchangeIngestion, type SimulationChunk } from '#market';
import { JsonLogger, ProgressBar } from '#runtime';

export const LIVE_TICK_MS = 1_000;
const ERROR_WAIT_MS = 2_000;

/**
 * How long the live loop waits after a step towards `targetMs` (step's result: a chunk, null when there
 * was nothing to do, undefined after a failure, which has waited already). Caught up with the clock, the
 * next chunk waits a tick: asked again at once, it would hold the few milliseconds of exchange time that
 * passed meanwhile, often not one block, and still cost a write, a read of every stream's files and a
 * prune; in a loop that kept most of a core busy for nothing. Behind (a chunk ended at a state-update
 * boundary or an hour), the next one follows at once.
 */
export function liveWaitMs(chunk: SimulationChunk | null | undefined, targetMs: number): number {
  if (chunk === undefined) return 0;
  return chunk === null || chunk.untilMs >= targetMs ? LIVE_TICK_MS : 0;
}

/**
 * With EXCHANGE_SOURCE=simulator (the default): backfills SIM_BACKFILL_DAYS of history up to now as
 * fast as it can, with a progress bar, then runs live with exchange time moving SIM_SPEED times as
 * fast as the wall clock (1 is real time; more runs ahead of it).
 */
@Injectable()
export class SimulatorFeedRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private running = false;
  private loop?: Promise<void>;
  private fills = 0;

  constructor(
    private readonly config: AppConfig,
    private readonly simulation: SimulatedExchangeIngestion,
    private readonly vacuum: CatchUpVacuum,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.EXCHANGE_SOURCE !== 'simulator') return;
    this.running = true;
    this.loop = this.run()
      .catch((error: Error) => {
        // Settings that do not match the directory cannot be retried: say so and leave the api running.
        this.logger.write('error', 'simulator stopped', { error: error.message });
      })
      // A state update still being applied commits before the loop counts as stopped.
      .finally(() => Promise.all([this.simulation.close(), this.vacuum.settle()]));
  }

  private async run(): Promise<void> {
    const c = this.config;
    const replay = new ProgressBar('simulator replay  ');
    const reached = await this.simulation.open(
      {
        dataDir: c.SIM_DATA_DIR,
        settings: {
          seed: c.SIM_SEED,
          wallets: c.SIM_WALLETS,
          markets: c.SIM_MARKETS,
          eventsPerSecond: c.SIM_EVENTS_PER_SECOND,
          bookOrders: c.SIM_BOOK_ORDERS,
        },
        backfillDays: c.SIM_BACKFILL_DAYS,
        stateIntervalMs: c.STATE_UPDATE_INTERVAL * 60_000,
        // The simulator on the second core: the next chunks are made while this thread stores one.
        engine: (settings) => new WorkerSimulatorEngine(settings),
        readAhead: CATCH_UP_READ_AHEAD,
        overlapStateUpdates: true,
        overlapReading: true,
        deferLatestOnlyTables: true,
        stateGroup: CATCH_UP_STATE_GROUP,
      },
      Date.now(),
      (done, total) => replay.update(done / total, 'rebuilding the simulated exchange from its seed'),
    );
    this.logger.write('info', 'simulator feed started', {
      dataDir: c.SIM_DATA_DIR,
      seed: c.SIM_SEED,
      wallets: c.SIM_WALLETS,
      reachedAt: new Date(reached).toISOString(),
    });

    const backfillEnd = Math.max(Date.now(), reached);
    const bar = new ProgressBar('simulator backfill');
    const from = this.simulation.startTimeMs;
    while (this.running) {
      const chunk = await this.step(backfillEnd);
      if (chunk === undefined) continue;
      if (chunk === null) break;
      this.vacuum.chunkStored((error) => this.logger.write('warn', 'catch-up vacuum failed', { error: error.message }));
      bar.update((chunk.untilMs - from) / (backfillEnd - from), this.reached(chunk.untilMs), { done: this.fills, unit: 'fills' });
    }
    if (!this.running) return;
    bar.done(this.reached(backfillEnd), { done: this.fills, unit: 'fills' });
    this.logger.write('info', 'simulator backfill done; running live', { speed: c.SIM_SPEED });

    const liveStartWall = Date.now();
    while (this.running) {
      const target = backfillEnd + (Date.now() - liveStartWall) * c.SIM_SPEED;
      const chunk = await this.step(target);
      const waitMs = liveWaitMs(chunk, target);
      if (waitMs > 0 && this.running) await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }

  /** The progress detail: exchange time reached and fills so far. */
  private reached(untilMs: number): string {
    return `${new Date(untilMs).toISOString().slice(0, 16)}Z, ${this.fills.toLocaleString('en')} fills`;
  }

  /** One chunk; null when caught up with `untilMs`, undefined after a failure (retried from the stored checkpoints). */
  private async step(untilMs: number): Promise<SimulationChunk | null | undefined> {
    try {
      const chunk = await this.simulation.advance(untilMs);
      if (!chunk) return null;
      this.fills += chunk.fills;
      for (const issue of chunk.issues) this.logger.write('warn', 'skipped malformed record', { issue: formatIssue(issue) });
      for (const state of chunk.states) if (state.applied) this.logger.write('debug', 'state update applied', { ...state });
      return chunk;
    } catch (error) {
      this.logger.write('error', 'simulator chunk failed; retrying', { error: (error as Error).message });
      await new Promise((resolve) => setTimeout(resolve, ERROR_WAIT_MS));
      return undefined;
    }
  }

  /** Lets the chunk in progress finish, so its facts, checkpoints and state are stored together. */
  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}
