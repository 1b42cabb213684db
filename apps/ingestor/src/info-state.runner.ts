import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#config';
import { HyperliquidInfoClient, InfoStateSource, parseTrackedAddresses } from '#exchange';
import { InfoStateUpdates } from '#market';
import { JsonLogger } from '#runtime';

/**
 * With EXCHANGE_SOURCE=node or hyperliquid: every STATE_UPDATE_INTERVAL minutes, reads the known
 * wallets' states from HL_INFO_URL and applies them (the simulator makes its own state updates).
 */
@Injectable()
export class InfoStateRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly config: AppConfig,
    private readonly updates: InfoStateUpdates,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    const c = this.config;
    if (c.EXCHANGE_SOURCE === 'simulator') return;
    const source = new InfoStateSource(new HyperliquidInfoClient(c.HL_INFO_URL));
    const tracked = c.EXCHANGE_SOURCE === 'hyperliquid' ? parseTrackedAddresses(c.HL_TRACKED_ADDRESSES ?? '') : [];
    const tick = () => {
      this.running = this.update(source, tracked).finally(() => (this.running = undefined));
    };
    this.timer = setInterval(() => this.running ?? tick(), c.STATE_UPDATE_INTERVAL * 60_000);
    this.logger.write('info', 'state updates from the info endpoint', { url: c.HL_INFO_URL, everyMinutes: c.STATE_UPDATE_INTERVAL });
  }

  private async update(source: InfoStateSource, tracked: string[]): Promise<void> {
    try {
      const { result, failures } = await this.updates.run(source, {
        heightFromTime: this.config.EXCHANGE_SOURCE === 'hyperliquid',
        nowMs: Date.now(),
        addresses: tracked,
      });
      for (const failure of failures.slice(0, 20)) this.logger.write('warn', 'wallet state not read', { ...failure });
      if (result)
        this.logger.write('info', 'state update applied', {
          wallets: result.wallets,
          positions: result.positions,
          failed: failures.length,
          timings: result.timings,
        });
    } catch (error) {
      this.logger.write('error', 'state update failed; the next interval tries again', { error: (error as Error).message });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
