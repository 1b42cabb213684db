import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each wallet's favourite count moves out of the wallets rows into a table of its own. The rows are
 * the state writer's (domain `state`) and the count the favourites' (domain `favorites`): one table
 * written by two domains could change without the version a cached route is kept under moving, and a
 * favourite added waited on the row lock of a state update rewriting every wallet. A wallet no consumer
 * ever favoured has no row here (its count reads as 0); the counts are moved as they were.
 */
export class WalletFavoriteCounts1765420000000 implements MigrationInterface {
  name = 'WalletFavoriteCounts1765420000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE wallet_favorite_counts (
        address text PRIMARY KEY,
        favorite_count integer NOT NULL CHECK (favorite_count >= 0)
      )`);
    await q.query(
      `INSERT INTO wallet_favorite_counts (address, favorite_count) SELECT address, favorite_count FROM wallets WHERE favorite_count > 0`,
    );
    await q.query(`ALTER TABLE wallets DROP COLUMN favorite_count`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE wallets ADD COLUMN favorite_count integer NOT NULL DEFAULT 0`);
    await q.query(`UPDATE wallets w SET favorite_count = c.favorite_count FROM wallet_favorite_counts c WHERE c.address = w.address`);
    await q.query(`DROP TABLE wallet_favorite_counts`);
  }
}
