import { Injectable } from '@nestjs/common';
import { type SqlRunner, ReadsTables } from '#database';

/** The markets the service knows: traded in a stored fill, or held in a position of a state update. */
@Injectable()
@ReadsTables('market_prices', 'positions')
export class CoinsQueries {
  /** The stored spelling of `coin`, matched without regard to case; null for a market never seen. */
  async canonical(q: SqlRunner, coin: string): Promise<string | null> {
    const rows: Array<{ coin: string }> = await q.query(
      `SELECT coin FROM (
         SELECT coin FROM market_prices WHERE lower(coin) = lower($1)
         UNION ALL
         (SELECT coin FROM positions WHERE lower(coin) = lower($1) LIMIT 1)
       ) known
       ORDER BY coin = $1 DESC, coin
       LIMIT 1`,
      [coin],
    );
    return rows[0]?.coin ?? null;
  }
}
