import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';

/**
 * The markets whose mid price has ticked (public-API feed), for the check of a price rule's market. Each
 * process writes a market once: the set of markets barely changes, and the feed ticks every second.
 */
@Injectable()
export class PriceMarketsRepository {
  private readonly stored = new Set<string>();

  /** Adds the markets not yet stored, in the caller's transaction; `committed` once it has committed. */
  async remember(q: SqlRunner, coins: readonly string[]): Promise<string[]> {
    const fresh = [...new Set(coins)].filter((c) => !this.stored.has(c));
    if (fresh.length > 0)
      await q.query(`INSERT INTO alert_price_markets (coin) SELECT unnest($1::text[]) ON CONFLICT (coin) DO NOTHING`, [fresh]);
    return fresh;
  }

  /** What a committed transaction stored: not written again by this process. */
  committed(coins: readonly string[]): void {
    for (const c of coins) this.stored.add(c);
  }
}
