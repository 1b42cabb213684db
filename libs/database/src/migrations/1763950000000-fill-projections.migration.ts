import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tables derived from stored fills and funding by the fill projector (libs/market/src/projections):
 * closed trades with the builder's open states, builder activity and exchange volume, and the
 * projector's checkpoint. Each run updates them and its checkpoint in one transaction, so the additive
 * aggregates never count a fill twice.
 */
export class FillProjections1763950000000 implements MigrationInterface {
  name = 'FillProjections1763950000000';

  async up(q: QueryRunner): Promise<void> {
    // The projector reads fills and funding by block window; without these every run scans the tables.
    await q.query(`CREATE INDEX fills_block_number_idx ON fills (block_number)`);
    await q.query(`CREATE INDEX funding_payments_block_number_idx ON funding_payments (block_number)`);

    // the API contract's closed trade plus the builder's extras (carried_size, exit_size, exit_usd). Times are
    // timestamptz like the facts; the hash is the trade's stable identity.
    await q.query(`
      CREATE TABLE closed_trades (
        hash text PRIMARY KEY,
        id text NOT NULL,
        address text NOT NULL,
        coin text NOT NULL,
        side text NOT NULL CHECK (side IN ('long', 'short')),
        avg_entry numeric,
        avg_exit numeric,
        duration bigint NOT NULL,
        open_time timestamptz NOT NULL,
        close_time timestamptz NOT NULL,
        partial boolean NOT NULL,
        total_size numeric NOT NULL,
        total_usd numeric NOT NULL,
        realized_pnl_usd numeric NOT NULL,
        count_fills integer NOT NULL,
        fee numeric NOT NULL,
        fee_usd numeric NOT NULL,
        funding_usd numeric NOT NULL,
        carried_size numeric NOT NULL,
        exit_size numeric NOT NULL,
        exit_usd numeric NOT NULL
      )`);
    // One wallet's trades by close time, newest first, with the hash as keyset tie-breaker.
    await q.query(`CREATE INDEX closed_trades_address_close_idx ON closed_trades (address, close_time DESC, hash DESC)`);

    // The ClosedTradeBuilder's OpenTradeState of each (address, coin) with a trade open; no row = flat.
    await q.query(`
      CREATE TABLE closed_trade_open_states (
        address text NOT NULL,
        coin text NOT NULL,
        state jsonb NOT NULL,
        PRIMARY KEY (address, coin)
      )`);

    await q.query(`
      CREATE TABLE projection_checkpoints (
        name text PRIMARY KEY,
        position jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    // Fills routed through a builder, per UTC hour, wallet and coin: the finest grain any Builders
    // endpoint needs (distinct users per hour or day, per coin, per wallet for the percentile groups),
    // so every figure is an exact sum over whole hours. volume = sum(px * sz), revenue = sum(builder_fee).
    await q.query(`
      CREATE TABLE builder_activity_hourly (
        builder text NOT NULL,
        hour timestamptz NOT NULL,
        address text NOT NULL,
        coin text NOT NULL,
        volume numeric NOT NULL,
        revenue numeric NOT NULL,
        fills integer NOT NULL,
        PRIMARY KEY (builder, hour, address, coin)
      )`);
    await q.query(`CREATE INDEX builder_activity_hourly_hour_idx ON builder_activity_hourly (hour)`);

    // All-time figures and the exact first and last fill of each builder (the hourly grain loses the ms).
    await q.query(`
      CREATE TABLE builder_totals (
        builder text PRIMARY KEY,
        first_fill_time timestamptz NOT NULL,
        last_fill_time timestamptz NOT NULL,
        volume numeric NOT NULL,
        revenue numeric NOT NULL,
        fills bigint NOT NULL
      )`);

    // Every trade once (its buyer's fill), for the exchange-wide volume the builder profile shows.
    await q.query(`
      CREATE TABLE exchange_volume_hourly (
        hour timestamptz NOT NULL,
        coin text NOT NULL,
        volume numeric NOT NULL,
        trades bigint NOT NULL,
        PRIMARY KEY (hour, coin)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE exchange_volume_hourly`);
    await q.query(`DROP TABLE builder_totals`);
    await q.query(`DROP TABLE builder_activity_hourly`);
    await q.query(`DROP TABLE projection_checkpoints`);
    await q.query(`DROP TABLE closed_trade_open_states`);
    await q.query(`DROP TABLE closed_trades`);
    await q.query(`DROP INDEX funding_payments_block_number_idx`);
    await q.query(`DROP INDEX fills_block_number_idx`);
  }
}
