import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The wallets list's sorted orders, written at each state update (libs/market/src/state/wallet-rankings.ts):
 * a page of the unfiltered list sorted by a column without an index of its own was a sort of every wallet
 * at each request (a top-N sort of 200,000 rows and a count of them, 100 to 140 ms, on the analytics
 * benchmark's dataset; docs/benchmarks.md). `wallet_rankings` holds each ranking's addresses in position
 * order, WALLET_RANKING_CHUNK (500) to a row; `wallet_rankings_status` the number of wallets they rank.
 *
 * A database with wallets gets the rankings of its wallets here, by the writer's statement as of this
 * migration, copied: a migration must not change when the writer later does.
 */
export class WalletRankings1765300000000 implements MigrationInterface {
  name = 'WalletRankings1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE wallet_rankings (
        ranking text NOT NULL,
        chunk integer NOT NULL,
        addresses text[] NOT NULL,
        PRIMARY KEY (ranking, chunk)
      )`);
    await q.query(`
      CREATE TABLE wallet_rankings_status (
        id smallint PRIMARY KEY CHECK (id = 1),
        state_time timestamptz NOT NULL,
        wallets integer NOT NULL
      )`);

    const [{ latest }]: Array<{ latest: Date | null }> = await q.query(`SELECT max(state_time) AS latest FROM state_updates`);
    if (latest === null) return;
    const rankings: Array<[column: string, nullable: boolean]> = [
      ['total_equity', false],
      ['perp_pnl', false],
      ['perp_equity', false],
      ['open_value', false],
      ['sum_upnl', false],
      ['perp_bias', true],
      ['closest_liq_progress', true],
      ['exposure_ratio', true],
    ];
    for (const [column, nullable] of rankings) {
      for (const direction of nullable ? ['DESC', 'ASC'] : ['DESC']) {
        await q.query(
          `INSERT INTO wallet_rankings (ranking, chunk, addresses)
           SELECT $1, (position - 1) / 500, array_agg(address ORDER BY position)
           FROM (SELECT address, row_number() OVER (ORDER BY ${column} ${direction}${nullable ? ' NULLS LAST' : ''}, address ${direction}) AS position FROM wallets) r
           GROUP BY 2`,
          [`${column} ${direction.toLowerCase()}`],
        );
      }
    }
    await q.query(`INSERT INTO wallet_rankings_status (id, state_time, wallets) SELECT 1, $1, count(*) FROM wallets`, [latest]);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE wallet_rankings_status`);
    await q.query(`DROP TABLE wallet_rankings`);
  }
}
