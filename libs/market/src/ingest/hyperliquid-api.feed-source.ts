import { type AddressStateChange, formatIssue, HyperliquidInfoClient, parseAllMids } from '#exchange';
import { type JsonLogger, WorkLoop } from '#runtime';
import { ExchangeFactsWriter } from '../facts/exchange-facts.writer.js';
import { InfoStateUpdates } from '../state/info-state.updates.js';
import { blocksStep, FeedSource, type FeedStep } from './feed-source.js';
import { HYPERLIQUID_SOURCE, HyperliquidApiIngestion } from './hyperliquid-api.ingestion.js';
import { InfoStateSchedule } from './info-state.schedule.js';
import { MidPricesRecorder } from './mid-prices.recorder.js';

const BLOCKS_PER_BATCH = 500;
/** How long a step waits for blocks to arrive; the next step follows at once. */
const BATCH_WAIT_MS = 500;
/** How far back an address without a stored cursor is backfilled: the 30 days the fills are kept. */
const FIRST_BACKFILL_MS = 30 * 24 * 60 * 60 * 1000;
/** The public API serves user-specific websocket subscriptions for at most this many wallets per IP. */
const PUBLIC_API_USER_LIMIT = 10;
/** How often the markets' mids are read: the public API's price feed for price_crossing rules. */
const MID_PRICES_EVERY_MS = 1_000;

export interface HyperliquidFeedOptions {
  /** The public API's info endpoint (HL_INFO_URL): backfills, mids and state updates. */
  infoUrl: string;
  wsUrl: string;
  /** The wallets followed (HL_TRACKED_ADDRESSES): the public API has no exchange-wide feed. */
  addresses: string[];
  stateIntervalMs: number;
}

/**
 * EXCHANGE_SOURCE=hyperliquid: follows the tracked wallets through the public API into Postgres; beside
 * its steps, reads the markets' mids every second as the price ticks of the price rules, and applies
 * state updates from the info server.
 */
export class HyperliquidApiFeedSource extends FeedSource {
  readonly name = HYPERLIQUID_SOURCE;
  /** A step waits for blocks itself (BATCH_WAIT_MS). */
  readonly idleMs = 0;
  private readonly states: InfoStateSchedule;
  private readonly mids: MidPricesRecorder;
  private readonly midsLoop = new WorkLoop({
    idleMs: MID_PRICES_EVERY_MS,
    errorMs: MID_PRICES_EVERY_MS * 5,
    onError: (error) => this.logger.write('warn', 'mid prices not read; trying again', { error: error.message }),
  });

  constructor(
    private readonly ingestion: HyperliquidApiIngestion,
    facts: ExchangeFactsWriter,
    infoState: InfoStateUpdates,
    private readonly options: HyperliquidFeedOptions,
    private readonly logger: JsonLogger,
  ) {
    super();
    const { infoUrl, stateIntervalMs: intervalMs, addresses } = options;
    this.states = new InfoStateSchedule(infoState, { infoUrl, intervalMs, heightFromTime: true, addresses }, logger);
    this.mids = new MidPricesRecorder(facts);
  }

  async open(): Promise<Record<string, unknown>> {
    const { infoUrl, wsUrl, addresses } = this.options;
    await this.ingestion.open({
      infoUrl,
      wsUrl,
      addresses,
      backfillFromMs: Date.now() - FIRST_BACKFILL_MS,
      onStateChange: (change) => this.logState(change),
    });
    if (addresses.length > PUBLIC_API_USER_LIMIT) {
      this.logger.write(
        'warn',
        `the public API follows at most ${PUBLIC_API_USER_LIMIT} wallets per IP on its websocket; the others will be refused`,
        { tracked: addresses.length },
      );
    }
    this.readMids();
    this.states.start();
    return { infoUrl, wsUrl, addresses };
  }

  async step(): Promise<FeedStep> {
    return blocksStep(await this.ingestion.step(BLOCKS_PER_BATCH, BATCH_WAIT_MS));
  }

  /** Lets the mids and a state update in progress commit, then closes the connections (blocks not taken yet are backfilled after a restart). */
  async close(): Promise<void> {
    await this.midsLoop.stop();
    await this.states.stop();
    await this.ingestion.close();
  }

  private readMids(): void {
    // One try per read: a late answer is stale, the next read is a second away.
    const info = new HyperliquidInfoClient(this.options.infoUrl, { maxAttempts: 1, timeoutMs: MID_PRICES_EVERY_MS * 5 });
    this.midsLoop.start(async () => {
      const readAt = Date.now();
      const mids = parseAllMids(await info.request({ type: 'allMids' }), { stream: 'allMids' });
      if (!mids.ok) throw new Error(formatIssue(mids.error));
      await this.mids.record(mids.value, readAt);
      return false;
    });
  }

  private logState({ address, state, ...detail }: AddressStateChange): void {
    const level = state === 'reconnecting' ? 'warn' : state === 'connecting' ? 'debug' : 'info';
    this.logger.write(level, `hyperliquid connection ${state}`, { address, ...detail });
  }
}
