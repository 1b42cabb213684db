import type { JsonLogger } from '#runtime';
import { InfoStateUpdates } from '../state/info-state.updates.js';
import { blocksStep, FeedSource, type FeedStep } from './feed-source.js';
import { InfoStateSchedule } from './info-state.schedule.js';
import { NODE_SOURCE, NodeDirectoryIngestion } from './node-directory.ingestion.js';

const BLOCKS_PER_STREAM_PER_BATCH = 500;
/**
 * How long a caught-up feed waits before looking for new blocks. The node writes a block every 70 to
 * 100 ms, and every wait is latency a webhook alert adds; a look is a few file system calls.
 */
const CAUGHT_UP_WAIT_MS = 50;

export interface NodeFeedOptions {
  /** The node's data directory (HL_NODE_DATA_DIR). */
  dataDir: string;
  /** Where the state updates read the wallets' states. */
  infoUrl: string;
  stateIntervalMs: number;
}

/** EXCHANGE_SOURCE=node: tails an hl-node data directory into Postgres, with state updates from the info server beside it. */
export class NodeDirectoryFeedSource extends FeedSource {
  readonly name = NODE_SOURCE;
  readonly idleMs = CAUGHT_UP_WAIT_MS;
  private readonly states: InfoStateSchedule;

  constructor(
    private readonly ingestion: NodeDirectoryIngestion,
    infoState: InfoStateUpdates,
    private readonly options: NodeFeedOptions,
    logger: JsonLogger,
  ) {
    super();
    const { infoUrl, stateIntervalMs: intervalMs } = options;
    this.states = new InfoStateSchedule(infoState, { infoUrl, intervalMs, heightFromTime: false, addresses: [] }, logger);
  }

  /** The feed itself opens at its first step, from the stored checkpoints. */
  async open(): Promise<Record<string, unknown>> {
    this.states.start();
    return { dataDir: this.options.dataDir };
  }

  async step(): Promise<FeedStep> {
    return blocksStep(await this.ingestion.step(this.options.dataDir, BLOCKS_PER_STREAM_PER_BATCH));
  }

  async close(): Promise<void> {
    await this.states.stop();
  }
}
