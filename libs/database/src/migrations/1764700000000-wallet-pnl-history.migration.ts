import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each wallet's all-time perp PnL as change points, written at every state update (a row when the PnL
 * differs from the wallet's previous one, and the first row when a wallet is first seen), so "the PnL
 * at time T" is the newest row at or before T: what the PnL leaderboard's day, week and month figures
 * subtract. The wallets table keeps only the latest value.
 */
export class WalletPnlHistory1764700000000 implements MigrationInterface {
  name = 'WalletPnlHistory1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE wallet_pnl_history (
        address text NOT NULL,
        created_at timestamptz NOT NULL,
        perp_pnl numeric NOT NULL,
        PRIMARY KEY (address, created_at)
      )`);
    // Wallets known before this table existed start their history at their last update.
    await q.query(`INSERT INTO wallet_pnl_history (address, created_at, perp_pnl) SELECT address, state_time, perp_pnl FROM wallets`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE wallet_pnl_history`);
  }
}
