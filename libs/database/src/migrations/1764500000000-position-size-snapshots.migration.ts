import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Open positions of each coin by position size (USD value, in the size cohorts' ranges) at every state
 * update: what the position-breakdown export compares with 24 hours earlier. Positions are updated in
 * place, so their earlier values exist only in rows written at the time.
 */
export class PositionSizeSnapshots1764500000000 implements MigrationInterface {
  name = 'PositionSizeSnapshots1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE position_size_snapshots (
        created_at timestamptz NOT NULL,
        coin text NOT NULL,
        size_segment_id smallint NOT NULL,
        position_count integer NOT NULL,
        total_position_value numeric NOT NULL,
        total_position_value_long numeric NOT NULL,
        value_near_liquidation numeric NOT NULL,
        PRIMARY KEY (coin, created_at, size_segment_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE position_size_snapshots`);
  }
}
