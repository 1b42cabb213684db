import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The export files in the store, each with the state update it was built from and the expiry of the last
 * link given out for it: what retention needs to delete a file once it is replaced and no link can reach it.
 */
export class ExportFiles1765720000000 implements MigrationInterface {
  name = 'ExportFiles1765720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE export_files (
        key text PRIMARY KEY,
        state_height bigint NOT NULL,
        links_expire_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX export_files_links_expire_at ON export_files (links_expire_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE export_files`);
  }
}
