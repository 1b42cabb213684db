import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every route that takes a coin resolves it case-insensitively first (CoinsQueries.canonical):
 * market_prices, then `positions WHERE lower(coin) = lower($1) LIMIT 1`. With no index on lower(coin)
 * the planner walked (coin, open_time, id) in coin order, filtering, until the first match: on the
 * analytics benchmark's dataset (1.5 million positions, 40 markets) 100 to 150 ms for BTC (190,000
 * entries sorted before it) and 400 to 900 ms for `cash:USA500` or `kPEPE`, on every request of the
 * coin routes, before the route's own query (npm run bench -- analytics; docs/benchmarks.md).
 *
 * With coin included the lookup is an index-only scan whose condition is the lookup itself, 0.03 ms
 * for any market. Without INCLUDE the planner still preferred the walk: it costs a heap fetch per
 * match, while it expected the walk to meet a match within the first few hundred entries. A position's
 * coin never changes, so the state writer's in-place updates of open positions stay HOT; a new
 * position writes one more index entry.
 */
export class AnalyticsIndexes1764600000000 implements MigrationInterface {
  name = 'AnalyticsIndexes1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX positions_coin_lower_idx ON positions (lower(coin)) INCLUDE (coin)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX positions_coin_lower_idx`);
  }
}
