import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The liquidation-fills route filters liquidation fills by coin and by wallet. fills_liquidation_time_idx
 * serves the unfiltered list, a time window and side; with it alone, a coin or a wallet with few
 * liquidations walked every liquidation ever stored (EXPLAIN over 400,000 fills, 20,000 of them
 * liquidations: a rare coin 1.8 ms, a quiet wallet 37 ms, both growing with history; 0.1 ms with these).
 * They hold liquidation fills only, so a fills insert pays for them only on the rare liquidation.
 *
 * The wallet index is on the address column itself, not lower(address): the planner keeps statistics
 * for a column but none for an expression of a partial index, so it took a wallet with 10,000
 * liquidation fills for 34 a month and read and sorted all of them (26 to 100 ms a page, growing with
 * the wallet's history); with the column it walks the time index instead (1.3 ms). Every feed stores
 * addresses lowercase (hl-node and the public API give them so, the simulator writes lowercase hex),
 * so the route matches the lowercased address it is given.
 */
export class LiquidationFills1764200000000 implements MigrationInterface {
  name = 'LiquidationFills1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX fills_liquidation_coin_time_idx ON fills (coin, time DESC) WHERE liquidated_user IS NOT NULL`);
    await q.query(`CREATE INDEX fills_liquidation_address_time_idx ON fills (address, time DESC) WHERE liquidated_user IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX fills_liquidation_address_time_idx`);
    await q.query(`DROP INDEX fills_liquidation_coin_time_idx`);
  }
}
