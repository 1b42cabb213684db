import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../libs/config/src/index.js';
import { FillProjector } from '../../../libs/market/src/projections/index.js';
import { JsonLogger } from '../../../libs/runtime/src/index.js';

// Well inside SPEC.md's "a trade is built within about 10 seconds of its final fill".
const IDLE_WAIT_MS = 1_000;
const ERROR_WAIT_MS = 2_000;

/**
 * Whatever the EXCHANGE_SOURCE: turns the fills and funding its feed stored into closed trades and builder
 * aggregates until the app stops. The feed checkpoints it follows are stored under the source's name.
 */
@Injectable()
export class FillProjectionsRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly projector: FillProjector;
  private running = false;
  private loop?: Promise<void>;

  constructor(
    dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly logger: JsonLogger,
  ) {
    this.projector = new FillProjector(dataSource);
  }

  onApplicationBootstrap(): void {
    this.running = true;
    this.logger.write('info', 'fill projections started', { source: this.config.EXCHANGE_SOURCE });
    this.loop = this.run(this.config.EXCHANGE_SOURCE);
  }

  private async run(source: string): Promise<void> {
    let warnedBlockless = false;
    while (this.running) {
      let wait = 0;
      try {
        const run = await this.projector.project(source);
        if (run.blockless && !warnedBlockless) {
          warnedBlockless = true;
          this.logger.write('warn', 'this feed stores fills without block numbers: closed trades and builder aggregates are not built for it', { source });
        }
        if (run.outOfOrderFills > 0) {
          this.logger.write('warn', 'fills older than ones already projected were left out of closed trades', { count: run.outOfOrderFills, toBlock: run.toBlock });
        }
        if (run.fills > 0 || run.lateFundingPayments > 0) {
          const { afterBlock, toBlock, fills, fundingPayments, lateFundingPayments, closedTrades } = run;
          this.logger.write('debug', 'fills projected', { afterBlock, toBlock, fills, fundingPayments, lateFundingPayments, closedTrades });
        }
        if (!run.more) wait = IDLE_WAIT_MS;
      } catch (error) {
        this.logger.write('error', 'fill projection failed; retrying from the stored checkpoint', { error: (error as Error).message });
        wait = ERROR_WAIT_MS;
      }
      if (wait && this.running) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Lets the run in progress commit, so a stop never leaves derived rows without their checkpoint. */
  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}
