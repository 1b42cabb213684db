import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig } from '#config';
import { type AddressStateChange, formatIssue, parseTrackedAddresses } from '#exchange';
import { HyperliquidApiIngestion } from '#market';
import { JsonLogger } from '#runtime';

const BLOCKS_PER_BATCH = 500;
const BATCH_WAIT_MS = 500;
const ERROR_WAIT_MS = 2_000;
/** How far back an address without a stored cursor is backfilled: the 30 days the fills are kept. */
const FIRST_BACKFILL_MS = 30 * 24 * 60 * 60 * 1000;
/** The public API serves user-specific websocket subscriptions for at most this many wallets per IP. */
const PUBLIC_API_USER_LIMIT = 10;

/** With EXCHANGE_SOURCE=hyperliquid: follows HL_TRACKED_ADDRESSES through the public API into Postgres until the app stops. */
@Injectable()
export class HyperliquidFeedRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private running = false;
  private loop?: Promise<void>;

  constructor(
    private readonly config: AppConfig,
    private readonly ingestion: HyperliquidApiIngestion,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.EXCHANGE_SOURCE !== 'hyperliquid') return;
    const addresses = parseTrackedAddresses(this.config.HL_TRACKED_ADDRESSES);
    this.running = true;
    this.logger.write('info', 'hyperliquid feed started', { infoUrl: this.config.HL_INFO_URL, wsUrl: this.config.HL_WS_URL, addresses });
    if (addresses.length > PUBLIC_API_USER_LIMIT) {
      this.logger.write(
        'warn',
        `the public API follows at most ${PUBLIC_API_USER_LIMIT} wallets per IP on its websocket; the others will be refused`,
        { tracked: addresses.length },
      );
    }
    this.loop = this.run(addresses);
  }

  private async run(addresses: string[]): Promise<void> {
    if (!(await this.start(addresses))) return;
    while (this.running) {
      try {
        const step = await this.ingestion.step(BLOCKS_PER_BATCH, BATCH_WAIT_MS);
        for (const issue of step.issues) this.logger.write('warn', 'skipped malformed record', { issue: formatIssue(issue) });
        if (step.written) this.logger.write('debug', 'blocks stored', { blocks: step.blocks, ...step.written });
      } catch (error) {
        this.logger.write('error', 'hyperliquid feed batch failed; writing it again', { error: (error as Error).message });
        if (this.running) await sleep(ERROR_WAIT_MS);
      }
    }
  }

  /** Reads the stored cursors and connects; retried while the database does not answer. False if stopped first. */
  private async start(addresses: string[]): Promise<boolean> {
    while (this.running) {
      try {
        await this.ingestion.start({
          infoUrl: this.config.HL_INFO_URL,
          wsUrl: this.config.HL_WS_URL,
          addresses,
          backfillFromMs: Date.now() - FIRST_BACKFILL_MS,
          onStateChange: (change) => this.logState(change),
        });
        return true;
      } catch (error) {
        this.logger.write('error', 'hyperliquid feed cannot start; retrying', { error: (error as Error).message });
        await sleep(ERROR_WAIT_MS);
      }
    }
    return false;
  }

  private logState({ address, state, ...detail }: AddressStateChange): void {
    const level = state === 'reconnecting' ? 'warn' : state === 'connecting' ? 'debug' : 'info';
    this.logger.write(level, `hyperliquid connection ${state}`, { address, ...detail });
  }

  /** Lets the batch in progress commit, then closes the connections. */
  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    await this.loop;
    await this.ingestion.stop();
  }
}
