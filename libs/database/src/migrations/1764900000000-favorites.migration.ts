import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each consumer's favourite accounts (the custom-dashboard flow). A favourite names a wallet the service
 * knows: the favourites service adds one only when its wallets row exists, and moves that row's
 * `favorite_count` in the same transaction, so every wallet profile (list, holders, leaderboards) reads
 * the count from the wallets row. No foreign key to wallets: its referential trigger would run on every
 * row of every state update, and wallets are never deleted. No cascade from consumers either: a consumer
 * is never deleted, and a cascade would leave the counts behind.
 */
export class Favorites1764900000000 implements MigrationInterface {
  name = 'Favorites1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE consumer_favorites (
        consumer_id integer NOT NULL REFERENCES consumers (id),
        address text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer_id, address)
      )`);
    // A consumer's list, newest first.
    await q.query(`CREATE INDEX consumer_favorites_newest_idx ON consumer_favorites (consumer_id, created_at DESC, address)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE consumer_favorites`);
  }
}
