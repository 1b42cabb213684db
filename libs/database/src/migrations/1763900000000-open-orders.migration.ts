import { MigrationInterface, QueryRunner } from 'typeorm';

// The Open-order fields (the API contract) shared by the live book and the intervals. Fixed-width columns come
// first so rows carry no alignment padding: the intervals table holds tens of millions of rows.
const ORDER_COLUMNS = `
  oid bigint NOT NULL,
  height bigint NOT NULL,
  timestamp timestamptz NOT NULL,
  builder_fee integer,
  is_trigger boolean NOT NULL,
  is_position_tpsl boolean NOT NULL,
  reduce_only boolean NOT NULL,
  side char(1) NOT NULL CHECK (side IN ('A', 'B')),
  address text NOT NULL,
  coin text NOT NULL,
  limit_px numeric NOT NULL,
  sz numeric NOT NULL,
  orig_sz numeric NOT NULL,
  trigger_condition text NOT NULL,
  trigger_px numeric NOT NULL,
  order_type text NOT NULL,
  tif text,
  cloid text,
  builder text,
  children jsonb NOT NULL`;

/**
 * Open orders from hl-node order statuses and fills (libs/market/src/orders/README.md): the live book,
 * the 5-minute snapshots stored as validity intervals, and the feed state that makes applying blocks
 * exact when the status and fill streams arrive at different speeds.
 */
export class OpenOrders1763900000000 implements MigrationInterface {
  name = 'OpenOrders1763900000000';

  async up(q: QueryRunner): Promise<void> {
    // The book as of the last applied block. A change is tagged with the snapshot that will first show it
    // (`pending_for`), so a snapshot looks at those rows only; an order that left the book stays as a
    // `gone` row until that snapshot has closed its interval.
    await q.query(`
      CREATE TABLE open_orders (${ORDER_COLUMNS},
        gone boolean NOT NULL,
        pending_for timestamptz NOT NULL,
        PRIMARY KEY (address, oid)
      )`);
    await q.query(`CREATE INDEX open_orders_pending_idx ON open_orders (pending_for)`);

    // One row per order version captured by snapshots: open at every snapshot T with
    // valid_from <= T < valid_to (valid_to null while still open).
    await q.query(`
      CREATE TABLE open_order_intervals (${ORDER_COLUMNS},
        valid_from timestamptz NOT NULL,
        valid_to timestamptz,
        CHECK (valid_to > valid_from)
      ) PARTITION BY RANGE (valid_to)`);
    // Closing a version moves it here: this partition, nearly all the rows, is only appended to (and
    // trimmed by retention), so closing leaves no dead rows in it. The current versions (valid_to null)
    // go to the default partition, since range partitions never hold null.
    await q.query(`CREATE TABLE open_order_intervals_closed PARTITION OF open_order_intervals FOR VALUES FROM (MINVALUE) TO (MAXVALUE)`);
    await q.query(`CREATE TABLE open_order_intervals_current PARTITION OF open_order_intervals DEFAULT`);
    // At most one current version per order (the snapshot diff looks versions up by it).
    await q.query(`CREATE UNIQUE INDEX open_order_intervals_current_key ON open_order_intervals_current (address, oid)`);
    // Pages are read in (address, oid) order, all of them or of one coin, with the validity bounds as index
    // keys so that "valid at T" is checked inside the index: a version not valid at T costs no heap visit.
    await q.query(`CREATE INDEX open_order_intervals_current_page_idx ON open_order_intervals_current (address, oid, valid_from)`);
    await q.query(`CREATE INDEX open_order_intervals_current_coin_idx ON open_order_intervals_current (coin, address, oid, valid_from)`);
    await q.query(`CREATE INDEX open_order_intervals_closed_key_idx ON open_order_intervals_closed (address, oid, valid_to, valid_from)`);
    await q.query(
      `CREATE INDEX open_order_intervals_closed_coin_idx ON open_order_intervals_closed (coin, address, oid, valid_to, valid_from)`,
    );
    // Retention deletes by valid_to at every snapshot; recent snapshots read the few versions closed since.
    await q.query(`CREATE INDEX open_order_intervals_closed_valid_to_idx ON open_order_intervals_closed (valid_to)`);
    await q.query(`CREATE INDEX open_order_intervals_oid_idx ON open_order_intervals (oid)`);

    await q.query(`
      CREATE TABLE open_order_snapshots (
        snapshot_ts timestamptz PRIMARY KEY,
        height bigint NOT NULL,
        order_count integer NOT NULL
      )`);

    // Per source: the last block seen of each of the two streams, and the last block applied to the book
    // (every block of both streams up to it has been seen).
    await q.query(`
      CREATE TABLE open_order_feeds (
        source text PRIMARY KEY,
        statuses_block bigint,
        statuses_time timestamptz,
        fills_block bigint,
        fills_time timestamptz,
        applied_block bigint,
        applied_time timestamptz
      )`);
    // Blocks of the stream that is ahead, waiting until the other stream has caught up with them.
    await q.query(`
      CREATE TABLE open_order_backlog (
        source text NOT NULL,
        stream text NOT NULL,
        block_number bigint NOT NULL,
        block jsonb NOT NULL,
        PRIMARY KEY (source, block_number, stream)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE open_order_backlog`);
    await q.query(`DROP TABLE open_order_feeds`);
    await q.query(`DROP TABLE open_order_snapshots`);
    await q.query(`DROP TABLE open_order_intervals`);
    await q.query(`DROP TABLE open_orders`);
  }
}
