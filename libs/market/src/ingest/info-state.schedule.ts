import { HyperliquidInfoClient, InfoStateSource } from '#exchange';
import type { JsonLogger } from '#runtime';
import { InfoStateUpdates } from '../state/info-state.updates.js';

export interface InfoStateScheduleOptions {
  infoUrl: string;
  /** Wall-clock time between updates (STATE_UPDATE_INTERVAL). */
  intervalMs: number;
  /** The public API has no block numbers: its updates are numbered by their time (InfoStateUpdates). */
  heightFromTime: boolean;
  /** Wallets read at every update besides those the stored facts know (the public API's tracked ones). */
  addresses: readonly string[];
}

/**
 * The state updates of the feeds that do not carry the exchange's state (hl-node directory, public API):
 * every interval, the known wallets' states are read from the info server and applied. An update still
 * running when the next is due makes that one wait for the interval after. Beside the feed's steps, so a
 * slow info server never holds the facts back.
 */
export class InfoStateSchedule {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly updates: InfoStateUpdates,
    private readonly options: InfoStateScheduleOptions,
    private readonly logger: JsonLogger,
  ) {}

  start(): void {
    const { infoUrl, intervalMs } = this.options;
    const source = new InfoStateSource(new HyperliquidInfoClient(infoUrl));
    const tick = () => {
      this.running = this.update(source).finally(() => (this.running = undefined));
    };
    this.timer = setInterval(() => this.running ?? tick(), intervalMs);
    this.logger.write('info', 'state updates from the info endpoint', { url: infoUrl, everyMinutes: intervalMs / 60_000 });
  }

  private async update(source: InfoStateSource): Promise<void> {
    try {
      const { result, failures } = await this.updates.run(source, {
        heightFromTime: this.options.heightFromTime,
        nowMs: Date.now(),
        addresses: this.options.addresses,
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

  /** Lets an update in progress commit. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
