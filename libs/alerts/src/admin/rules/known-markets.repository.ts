import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';

/** A market as the service knows it: its stored spelling, and whether it has price ticks. */
export interface KnownMarket {
  coin: string;
  /** It has a last trade price (market_prices) or a mid that ticked (alert_price_markets): a price rule can fire. */
  priced: boolean;
}

/**
 * The markets the service has seen: traded in a stored fill (market_prices), ticked by its mid price
 * (the public-API feed, alert_price_markets) or held in a position of a state update. A rule's market
 * names are checked against them, so a typo is refused instead of making a rule that can never fire.
 */
@Injectable()
export class KnownMarketsRepository {
  /** Every known spelling of each name, matched without regard to case, by lower-case name. */
  async find(q: SqlRunner, names: readonly string[]): Promise<Map<string, KnownMarket[]>> {
    const byName = new Map<string, KnownMarket[]>();
    if (names.length === 0) return byName;
    const rows: Array<{ coin: string; priced: boolean }> = await q.query(
      `SELECT coin, bool_or(priced) AS priced FROM (
         SELECT coin, true AS priced FROM market_prices WHERE lower(coin) = ANY($1::text[])
         UNION ALL
         SELECT coin, true FROM alert_price_markets WHERE lower(coin) = ANY($1::text[])
         UNION ALL
         -- One position per name is enough to know the market (a coin has many thousands over time).
         SELECT p.coin, false FROM unnest($1::text[]) AS n (name)
         CROSS JOIN LATERAL (SELECT coin FROM positions WHERE lower(coin) = n.name LIMIT 1) p
       ) known
       GROUP BY coin ORDER BY coin`,
      [[...new Set(names.map((n) => n.toLowerCase()))]],
    );
    for (const r of rows) {
      const key = r.coin.toLowerCase();
      byName.set(key, [...(byName.get(key) ?? []), { coin: r.coin, priced: r.priced }]);
    }
    return byName;
  }
}
