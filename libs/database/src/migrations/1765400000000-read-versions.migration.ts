import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The version of each kind of data the analytics routes read (facts, projections, state, favorites), bumped
 * by its writer inside the writing transaction (ReadVersionsRepository). The api keys its cache of rendered
 * answers by them: an answer is reused only while none of them moved. Values come from one sequence, so a
 * bump never repeats an earlier value, even after the table is emptied.
 */
export class ReadVersions1765400000000 implements MigrationInterface {
  name = 'ReadVersions1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE read_versions_seq`);
    await q.query(`CREATE TABLE read_versions (domain text PRIMARY KEY, version bigint NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE read_versions`);
    await q.query(`DROP SEQUENCE read_versions_seq`);
  }
}
