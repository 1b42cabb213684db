import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The exchange facts read from hl-node blocks, and the per-stream feed checkpoints stored in the same
 * transaction. Every fact table has a natural unique key so that re-reading a block changes nothing.
 */
export class ExchangeFacts1763800000000 implements MigrationInterface {
  name = 'ExchangeFacts1763800000000';

  async up(q: QueryRunner): Promise<void> {
    // A fill is unique by (tid, address). Postgres wants the partition key in every unique constraint,
    // hence (tid, address, time): a trade's time never changes, so the two keys are equivalent
    // (fills.repository.ts).
    await q.query(`
      CREATE TABLE fills (
        address text NOT NULL,
        coin text NOT NULL,
        px numeric NOT NULL,
        sz numeric NOT NULL,
        side char(1) NOT NULL CHECK (side IN ('A', 'B')),
        time timestamptz NOT NULL,
        start_position numeric NOT NULL,
        dir text NOT NULL,
        closed_pnl numeric NOT NULL,
        hash text NOT NULL,
        oid bigint NOT NULL,
        crossed boolean NOT NULL,
        fee numeric NOT NULL,
        fee_token text,
        tid bigint NOT NULL,
        cloid text,
        twap_id bigint,
        builder text,
        builder_fee numeric,
        liquidated_user text,
        liquidation_mark_px numeric,
        liquidation_method text,
        is_liquidated_side boolean NOT NULL,
        block_number bigint NOT NULL,
        block_time timestamptz NOT NULL,
        PRIMARY KEY (tid, address, time)
      ) PARTITION BY RANGE (time)`);
    // Catches a fill written without its month's partition, so such a write never fails.
    await q.query(`CREATE TABLE fills_default PARTITION OF fills DEFAULT`);
    await q.query(`CREATE INDEX fills_coin_time_idx ON fills (coin, time DESC)`);
    await q.query(`CREATE INDEX fills_address_time_idx ON fills (address, time DESC)`);
    await q.query(`CREATE INDEX fills_liquidation_time_idx ON fills (time DESC) WHERE liquidated_user IS NOT NULL`);
    // Monthly partitions (UTC months) are created on demand by the writer for the months a batch touches.
    // Rows that already went to the default partition for that month are moved in, since Postgres refuses
    // to add a partition whose range the default partition holds rows of. The advisory lock serialises
    // two writers creating the same month.
    await q.query(`
      CREATE FUNCTION ensure_fills_partition(at timestamptz) RETURNS text LANGUAGE plpgsql AS $$
      DECLARE
        month_start timestamptz := date_trunc('month', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
        month_end timestamptz := (date_trunc('month', at AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
        part text := 'fills_' || to_char(at AT TIME ZONE 'UTC', 'YYYY_MM');
      BEGIN
        IF to_regclass(part) IS NOT NULL THEN RETURN part; END IF;
        PERFORM pg_advisory_xact_lock(hashtext('ensure_fills_partition'));
        IF to_regclass(part) IS NOT NULL THEN RETURN part; END IF;
        EXECUTE format('CREATE TABLE %I (LIKE fills INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part);
        EXECUTE format(
          'WITH moved AS (DELETE FROM fills_default WHERE time >= $1 AND time < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
          part) USING month_start, month_end;
        EXECUTE format('ALTER TABLE fills ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, month_start, month_end);
        RETURN part;
      END $$`);

    // A TWAP reports each status once; the block number keeps a repeated 'error'/'unknown' report apart.
    await q.query(`
      CREATE TABLE twap_statuses (
        block_number bigint NOT NULL,
        twap_id bigint NOT NULL,
        status text NOT NULL,
        description text,
        coin text NOT NULL,
        address text NOT NULL,
        side char(1) NOT NULL CHECK (side IN ('A', 'B')),
        sz numeric NOT NULL,
        executed_sz numeric NOT NULL,
        executed_ntl numeric NOT NULL,
        minutes integer NOT NULL,
        reduce_only boolean NOT NULL,
        randomize boolean NOT NULL,
        timestamp timestamptz NOT NULL,
        time timestamptz NOT NULL,
        PRIMARY KEY (twap_id, status, block_number)
      )`);
    await q.query(`CREATE INDEX twap_statuses_address_time_idx ON twap_statuses (address, time DESC)`);

    // One row per affected address of a LedgerUpdate event (a send touches sender and receiver):
    // a transaction hash with the address and the delta type names it.
    await q.query(`
      CREATE TABLE ledger_updates (
        hash text NOT NULL,
        address text NOT NULL,
        type text NOT NULL,
        usdc numeric,
        delta jsonb NOT NULL,
        users text[] NOT NULL,
        time timestamptz NOT NULL,
        block_number bigint NOT NULL,
        PRIMARY KEY (hash, address, type)
      )`);
    await q.query(`CREATE INDEX ledger_updates_address_time_idx ON ledger_updates (address, time DESC)`);
    await q.query(`CREATE INDEX ledger_updates_movements_idx ON ledger_updates (time DESC) WHERE type IN ('deposit', 'withdraw')`);

    // Funding is paid once per position and funding instant.
    await q.query(`
      CREATE TABLE funding_payments (
        address text NOT NULL,
        coin text NOT NULL,
        usdc numeric NOT NULL,
        szi numeric NOT NULL,
        funding_rate numeric NOT NULL,
        time timestamptz NOT NULL,
        block_number bigint NOT NULL,
        PRIMARY KEY (address, coin, time)
      )`);
    await q.query(`CREATE INDEX funding_payments_coin_time_idx ON funding_payments (coin, time DESC)`);

    await q.query(`
      CREATE TABLE market_prices (
        coin text PRIMARY KEY,
        px numeric NOT NULL,
        time timestamptz NOT NULL,
        block_number bigint NOT NULL
      )`);

    // Streams are independent (the design (section 2)), so progress is one row per source and stream.
    await q.query(`
      CREATE TABLE feed_checkpoints (
        source text NOT NULL,
        stream text NOT NULL,
        position jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (source, stream)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE feed_checkpoints`);
    await q.query(`DROP TABLE market_prices`);
    await q.query(`DROP TABLE funding_payments`);
    await q.query(`DROP TABLE ledger_updates`);
    await q.query(`DROP TABLE twap_statuses`);
    await q.query(`DROP FUNCTION ensure_fills_partition(timestamptz)`);
    await q.query(`DROP TABLE fills`);
  }
}
