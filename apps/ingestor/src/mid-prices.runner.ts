import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { MidPricesOutbox } from '#alerts';
import { AppConfig } from '#config';
import { formatIssue, HyperliquidInfoClient, parseAllMids } from '#exchange';
import { JsonLogger, WorkLoop } from '#runtime';

/** How often the markets' mids are read: the public API's price feed for price_crossing rules. */
const MID_PRICES_EVERY_MS = 1_000;

/** With EXCHANGE_SOURCE=hyperliquid: reads `allMids` every second as the price ticks of the price rules. */
@Injectable()
export class MidPricesRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop = new WorkLoop({
    idleMs: MID_PRICES_EVERY_MS,
    errorMs: MID_PRICES_EVERY_MS * 5,
    onError: (error) => this.logger.write('warn', 'mid prices not read; trying again', { error: error.message }),
  });

  constructor(
    private readonly config: AppConfig,
    private readonly midPrices: MidPricesOutbox,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.EXCHANGE_SOURCE !== 'hyperliquid') return;
    // One try per read: a late answer is stale, the next read is a second away.
    const info = new HyperliquidInfoClient(this.config.HL_INFO_URL, { maxAttempts: 1, timeoutMs: MID_PRICES_EVERY_MS * 5 });
    this.loop.start(async () => {
      const readAt = Date.now();
      const mids = parseAllMids(await info.request({ type: 'allMids' }), { stream: 'allMids' });
      if (!mids.ok) throw new Error(formatIssue(mids.error));
      await this.midPrices.record(mids.value, readAt);
      return false;
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }
}
