import type { ParseIssue } from '#exchange';
import type { StateUpdateResult } from '../state/market-state.writer.js';
import type { IngestionStep } from './node-directory.ingestion.js';

/** What one step of a feed did, for the runner: whether to step again at once, and what to log. */
export interface FeedStep {
  /** More is waiting: the runner steps again at once; otherwise it waits the source's `idleMs`. */
  more: boolean;
  /** What the step stored, counted by kind (blocks, fills, ...); null when it stored nothing. */
  stored: Readonly<Record<string, number>> | null;
  /** Malformed records the step skipped. */
  issues: readonly ParseIssue[];
  /** State updates the feed made itself that committed during the step (the simulator's). */
  states: readonly StateUpdateResult[];
}

/**
 * One source of exchange data (docs/architecture.md, "a feed source"): the embedded simulator, an hl-node
 * directory or the public API. One adapter per source owns everything particular to it (its reader, its
 * state updates, its pace, the work it runs beside its steps); the ingestor's one runner drives whichever
 * the factory chose: `open` once, `step` until stopped, `close`. A class rather than an interface, so Nest
 * can inject the chosen one by it.
 */
export abstract class FeedSource {
  /** The source's name: its feed checkpoints' and its projections' (`simulator`, `node`, `hyperliquid`). */
  abstract readonly name: string;
  /** How long the runner waits after a step that left nothing waiting. */
  abstract readonly idleMs: number;

  /**
   * Resumes from the stored checkpoints and starts the source's work beside its steps; resolves to the
   * fields of the runner's `<name> feed started` line. A failure is retried after a wait, unless it is a
   * FeedRefusedError.
   */
  abstract open(): Promise<Record<string, unknown>>;

  /** Stores the next batch (or chunk) of the feed, in its own transactions. A failure is retried after a wait. */
  abstract step(): Promise<FeedStep>;

  /** Called once no step is in progress: lets the work beside the steps commit, and lets go of the source. */
  abstract close(): Promise<void>;
}

/** A source that cannot run as set up: the runner says so and stops its feed, and the rest of the app runs on. */
export class FeedRefusedError extends Error {}

/** The step of a feed that stored one batch of blocks (hl-node, public API): more waits while blocks come. */
export function blocksStep({ blocks, issues, written }: IngestionStep): FeedStep {
  return { more: blocks > 0, stored: written && { blocks, ...written }, issues, states: [] };
}
