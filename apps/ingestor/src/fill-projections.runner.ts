import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { FeedSource, FillProjector } from '#market';
import { JsonLogger, WorkLoop } from '#runtime';

/**
 * Whatever the feed: turns the fills and funding it stored into closed trades and builder aggregates until
 * the app stops. The feed checkpoints it follows are stored under the feed's name, all it needs of it.
 */
@Injectable()
export class FillProjectionsRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop = new WorkLoop({
    // Well inside the API contract's "a trade is built within about 10 seconds of its final fill".
    idleMs: 1_000,
    errorMs: 2_000,
    onError: (error) => this.logger.write('error', 'fill projection failed; retrying from the stored checkpoint', { error: error.message }),
  });
  private warnedBlockless = false;

  constructor(
    private readonly projector: FillProjector,
    @Inject(FeedSource) private readonly feed: Pick<FeedSource, 'name'>,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    const source = this.feed.name;
    this.logger.write('info', 'fill projections started', { source });
    this.loop.start(() => this.step(source));
  }

  private async step(source: string): Promise<boolean> {
    const run = await this.projector.project(source);
    if (run.blockless && !this.warnedBlockless) {
      this.warnedBlockless = true;
      this.logger.write('warn', 'this feed stores fills without block numbers: closed trades and builder aggregates are not built for it', {
        source,
      });
    }
    if (run.outOfOrderFills > 0) {
      this.logger.write('warn', 'fills older than ones already projected were left out of closed trades', {
        count: run.outOfOrderFills,
        toBlock: run.toBlock,
      });
    }
    if (run.fills > 0 || run.lateFundingPayments > 0) {
      const { afterBlock, toBlock, fills, fundingPayments, lateFundingPayments, closedTrades } = run;
      this.logger.write('debug', 'fills projected', { afterBlock, toBlock, fills, fundingPayments, lateFundingPayments, closedTrades });
    }
    return run.more;
  }

  /** Lets the run in progress commit, so a stop never leaves derived rows without their checkpoint. */
  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }
}
