import { isSpotCoin } from '#exchange';
import type { MidPriceTick } from '../facts/exchange-facts.types.js';
import { ExchangeFactsWriter } from '../facts/exchange-facts.writer.js';
import { HYPERLIQUID_SOURCE } from './hyperliquid-api.ingestion.js';

/**
 * Price ticks of the public-API feed. Its fills are only the tracked wallets', which say little about a
 * market's price, so there each `allMids` answer is the tick: one per perpetual market whose mid moved
 * since the previous answer, handed to the facts writer as one batch (the alert outbox matches it
 * against the price rules in its transaction and enqueues after the commit).
 *
 * The previous mid is this process's own: after a restart the first answer is a baseline, and a crossing
 * that happened while the ingestor was down is not reported (a late alert for an old crossing would
 * mislead more than none).
 */
export class MidPricesRecorder {
  private readonly last = new Map<string, { px: string; timeMs: number }>();

  constructor(private readonly facts: ExchangeFactsWriter) {}

  /** Takes one `allMids` answer, read at `timeMs`. */
  async record(mids: Readonly<Record<string, string>>, timeMs: number): Promise<void> {
    const ticks: MidPriceTick[] = [];
    for (const [coin, px] of Object.entries(mids)) {
      if (isSpotCoin(coin)) continue;
      const previous = this.last.get(coin);
      if (previous && previous.px !== px) ticks.push({ coin, px, timeMs, previous });
    }
    await this.facts.writeMidTicks(ticks, HYPERLIQUID_SOURCE);
    // Only a stored answer moves the baseline: after a failed write the next answer is compared with the last stored one.
    for (const [coin, px] of Object.entries(mids)) if (!isSpotCoin(coin)) this.last.set(coin, { px, timeMs });
  }
}
