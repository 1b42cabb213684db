import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The cohort columns and their indexes take the code's word, cohort (the API's `segment` stays at its
 * edge: routes, parameters and JSON fields). Renames only change the catalog: no row is rewritten and
 * the primary keys and indexes that hold these columns follow them. An app built before this migration
 * reads the old names, so every app is restarted on the new build with it.
 */
export class CohortColumns1765500000000 implements MigrationInterface {
  name = 'CohortColumns1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE wallets RENAME COLUMN size_segment_id TO size_cohort_id`);
    await q.query(`ALTER TABLE wallets RENAME COLUMN pnl_segment_id TO pnl_cohort_id`);
    await q.query(`ALTER INDEX wallets_size_segment_idx RENAME TO wallets_size_cohort_idx`);
    await q.query(`ALTER INDEX wallets_pnl_segment_idx RENAME TO wallets_pnl_cohort_idx`);
    await q.query(`ALTER TABLE cohort_position_snapshots RENAME COLUMN segment_id TO cohort_id`);
    await q.query(`ALTER TABLE cohort_summary_snapshots RENAME COLUMN segment_id TO cohort_id`);
    await q.query(`ALTER TABLE position_size_snapshots RENAME COLUMN size_segment_id TO size_cohort_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE position_size_snapshots RENAME COLUMN size_cohort_id TO size_segment_id`);
    await q.query(`ALTER TABLE cohort_summary_snapshots RENAME COLUMN cohort_id TO segment_id`);
    await q.query(`ALTER TABLE cohort_position_snapshots RENAME COLUMN cohort_id TO segment_id`);
    await q.query(`ALTER INDEX wallets_pnl_cohort_idx RENAME TO wallets_pnl_segment_idx`);
    await q.query(`ALTER INDEX wallets_size_cohort_idx RENAME TO wallets_size_segment_idx`);
    await q.query(`ALTER TABLE wallets RENAME COLUMN pnl_cohort_id TO pnl_segment_id`);
    await q.query(`ALTER TABLE wallets RENAME COLUMN size_cohort_id TO size_segment_id`);
  }
}
