import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The derived market state written at every exchange state update (the design (sections 2 and 3)):
 * wallets with their cohorts, open and historical positions, and the per-update snapshots. Every
 * time here is exchange time (the state's block time), so a replay writes the same rows.
 */
export class MarketState1764000000000 implements MigrationInterface {
  name = 'MarketState1764000000000';

  async up(q: QueryRunner): Promise<void> {
    // One row per applied update: the replay guard, and the HYPE price that values holder history.
    await q.query(`
      CREATE TABLE state_updates (
        height bigint PRIMARY KEY,
        state_time timestamptz NOT NULL UNIQUE,
        hype_px numeric,
        wallets integer NOT NULL,
        positions integer NOT NULL,
        processed_at timestamptz NOT NULL
      )`);

    await q.query(`
      CREATE TABLE wallets (
        address text PRIMARY KEY,
        earliest_activity_at timestamptz NOT NULL,
        state_time timestamptz NOT NULL,
        perp_equity numeric NOT NULL,
        spot_equity numeric NOT NULL,
        staked_equity numeric NOT NULL,
        total_equity numeric NOT NULL,
        perp_pnl numeric NOT NULL,
        size_segment_id smallint NOT NULL,
        pnl_segment_id smallint NOT NULL,
        open_value numeric NOT NULL,
        long_value numeric NOT NULL,
        short_value numeric NOT NULL,
        sum_upnl numeric NOT NULL,
        exposure_ratio numeric,
        perp_bias numeric,
        closest_liq_coin text,
        closest_liq_progress numeric,
        count_open_positions integer NOT NULL,
        spot_hype numeric NOT NULL,
        staked_hype numeric NOT NULL,
        x_user_id text,
        display_name text,
        emoji text,
        verified boolean NOT NULL DEFAULT false,
        favorite_count integer NOT NULL DEFAULT 0
      ) WITH (fillfactor = 45)`);

    // A position is one stretch of a wallet on a coin on one side: a flip closes it and opens the next.
    // The open one is updated in place at every state update; closing stamps close_time and keeps
    // the last values seen. Wallets and positions are rewritten at every update: pages filled to 45 %
    // leave room for each row's next version in its own page, and no index covers the values that
    // change, so those are HOT updates that touch no index (at 70 % two thirds were not, and the
    // update of 300,000 positions took four times as long).
    await q.query(`
      CREATE TABLE positions (
        id bigserial PRIMARY KEY,
        address text NOT NULL,
        coin text NOT NULL,
        dex text NOT NULL,
        side text NOT NULL CHECK (side IN ('long', 'short')),
        size numeric NOT NULL,
        entry_price numeric NOT NULL,
        value numeric NOT NULL,
        unrealized_pnl numeric NOT NULL,
        funding numeric NOT NULL,
        liquidation_price numeric,
        liquidation_progress numeric,
        leverage_type text NOT NULL,
        leverage numeric NOT NULL,
        margin_used numeric NOT NULL,
        open_time timestamptz NOT NULL,
        close_time timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      ) WITH (fillfactor = 45)`);
    await q.query(`CREATE UNIQUE INDEX positions_open_key ON positions (address, coin) WHERE close_time IS NULL`);
    await q.query(`CREATE INDEX positions_open_coin_idx ON positions (coin) WHERE close_time IS NULL`);
    await q.query(`CREATE INDEX positions_address_idx ON positions (address, open_time DESC)`);
    await q.query(`CREATE INDEX positions_window_idx ON positions (open_time, close_time)`);

    // Per coin, cohort and position-age timeframe at every update; a cohort without positions in a
    // coin has no row (zero everywhere).
    await q.query(`
      CREATE TABLE cohort_position_snapshots (
        created_at timestamptz NOT NULL,
        timeframe text NOT NULL CHECK (timeframe IN ('all', '24h', '7d', '30d')),
        coin text NOT NULL,
        segment_id smallint NOT NULL,
        position_count integer NOT NULL,
        position_count_long integer NOT NULL,
        total_position_value numeric NOT NULL,
        total_position_value_long numeric NOT NULL,
        total_funding numeric NOT NULL,
        total_unrealized_pnl numeric NOT NULL,
        total_position_size numeric NOT NULL,
        total_position_size_long numeric NOT NULL,
        PRIMARY KEY (coin, segment_id, timeframe, created_at)
      )`);
    await q.query(`CREATE INDEX cohort_position_snapshots_time_idx ON cohort_position_snapshots (created_at)`);

    await q.query(`
      CREATE TABLE market_snapshots (
        id serial PRIMARY KEY,
        created_at timestamptz NOT NULL UNIQUE,
        count integer NOT NULL,
        count_long integer NOT NULL,
        count_short integer NOT NULL,
        open_interest numeric NOT NULL,
        open_interest_long numeric NOT NULL,
        open_interest_short numeric NOT NULL,
        perp_equity numeric NOT NULL,
        count_in_profit integer NOT NULL
      )`);

    await q.query(`
      CREATE TABLE wallets_equity_history (
        created_at timestamptz PRIMARY KEY,
        total_wallets_equity numeric NOT NULL,
        perp_wallets_equity numeric NOT NULL,
        spot_wallets_equity numeric NOT NULL,
        staking_wallets_equity numeric NOT NULL,
        vault_wallets_equity numeric
      )`);

    // HYPE balances as change points: a row when a wallet's amounts differ from its previous row, so
    // "the balance 24h ago" is the newest row at or before then; USD values use that update's price.
    await q.query(`
      CREATE TABLE holder_history (
        address text NOT NULL,
        created_at timestamptz NOT NULL,
        spot_amount numeric NOT NULL,
        staked_amount numeric NOT NULL,
        PRIMARY KEY (address, created_at)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'holder_history',
      'wallets_equity_history',
      'market_snapshots',
      'cohort_position_snapshots',
      'positions',
      'wallets',
      'state_updates',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
