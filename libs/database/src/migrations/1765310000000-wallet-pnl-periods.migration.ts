import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each wallet's day, week and month PnL, written at each state update (StateSnapshotsRepository.pnlPeriods):
 * the PnL leaderboard looked three history rows up for every wallet at each request (12 to 22 s on the
 * analytics benchmark's 200,000 wallets; docs/benchmarks.md). Filled here for the latest update by the
 * writer's statement as of this migration, copied: a migration must not change when the writer later does.
 */
export class WalletPnlPeriods1765310000000 implements MigrationInterface {
  name = 'WalletPnlPeriods1765310000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE wallet_pnl_periods (
        address text PRIMARY KEY,
        pnl_day numeric NOT NULL,
        pnl_week numeric NOT NULL,
        pnl_month numeric NOT NULL
      )`);
    const [{ latest }]: Array<{ latest: Date | null }> = await q.query(`SELECT max(state_time) AS latest FROM state_updates`);
    if (latest === null) return;
    const at = (hours: number) =>
      `(SELECT DISTINCT ON (address) address, perp_pnl FROM wallet_pnl_history WHERE created_at <= $1::timestamptz - interval '${hours} hours' ORDER BY address, created_at DESC)`;
    await q.query(
      `INSERT INTO wallet_pnl_periods (address, pnl_day, pnl_week, pnl_month)
       SELECT w.address, w.perp_pnl - coalesce(d.perp_pnl, f.perp_pnl, w.perp_pnl), w.perp_pnl - coalesce(wk.perp_pnl, f.perp_pnl, w.perp_pnl),
              w.perp_pnl - coalesce(m.perp_pnl, f.perp_pnl, w.perp_pnl)
       FROM wallets w
       LEFT JOIN ${at(24)} d ON d.address = w.address
       LEFT JOIN ${at(7 * 24)} wk ON wk.address = w.address
       LEFT JOIN ${at(30 * 24)} m ON m.address = w.address
       LEFT JOIN (SELECT DISTINCT ON (address) address, perp_pnl FROM wallet_pnl_history ORDER BY address, created_at) f ON f.address = w.address`,
      [latest],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE wallet_pnl_periods`);
  }
}
