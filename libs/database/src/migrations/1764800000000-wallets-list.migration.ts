import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the wallet list (`GET /api/external/wallets`), only on columns a state update seldom
 * changes. Wallets are rewritten in place at every update as HOT updates, which touch no index as long
 * as no indexed column changes (see the market-state migration). MarketStateWriter.apply on 50,000
 * wallets, half of them with positions that move at every update and 5 % of those opening or closing
 * one (two rounds of two updates per variant, on a shared 2-core machine), the wallets step:
 * - no index but the primary key: 0.36 to 0.46 s, every update HOT;
 * - the four below: 0.40 to 0.82 s, 94.5 % HOT;
 * - the four below and (total_equity, address): 1.1 to 3.6 s, 50 % HOT (every moving wallet);
 * - the four below and (field, address) on all eight money and ratio columns: 2.3 to 7.2 s, 50 % HOT.
 * A moving wallet's update stops being HOT with one changing indexed column, and then writes an entry
 * in every index. At 200,000 wallets that would add several seconds to every state update, so the list
 * sorts by those eight columns with a top-N sort of narrow rows over the table instead: EXPLAIN ANALYZE
 * on 200,000 generated wallets gave 0.07 to 0.26 s for a first page and 0.4 to 1.1 s for a page 100,000
 * deep (1 to 45 ms with an index). These indexes serve the rest:
 * - (earliest_activity_at, address): never changed after the insert; sorts by age in both directions;
 * - (count_open_positions, address): changes only when a wallet opens or closes a position; sorts by
 *   it and serves hasOpenPositions;
 * - size_segment_id, pnl_segment_id: change only when a wallet crosses a cohort bound; a list of a
 *   few cohorts reads only their wallets (the whales and the PnL extremes are a small part).
 * `address` is the primary key.
 */
export class WalletsList1764800000000 implements MigrationInterface {
  name = 'WalletsList1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX wallets_earliest_activity_idx ON wallets (earliest_activity_at, address)`);
    await q.query(`CREATE INDEX wallets_open_positions_idx ON wallets (count_open_positions, address)`);
    await q.query(`CREATE INDEX wallets_size_segment_idx ON wallets (size_segment_id)`);
    await q.query(`CREATE INDEX wallets_pnl_segment_idx ON wallets (pnl_segment_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const index of [
      'wallets_pnl_segment_idx',
      'wallets_size_segment_idx',
      'wallets_open_positions_idx',
      'wallets_earliest_activity_idx',
    ]) {
      await q.query(`DROP INDEX ${index}`);
    }
  }
}
