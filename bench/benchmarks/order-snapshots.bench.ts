import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '#database';
import {
  type Fill,
  type NodeFillEvent,
  type NodeFillsBlock,
  type NodeOrderStatusesBlock,
  type NodeOrderStatusEvent,
  type Order,
  SeededRandom,
} from '#exchange';
import { OpenOrdersWriter, openMarketWriteContext, SNAPSHOT_INTERVAL_MS } from '#market';
import { dropDatabase, median, progress, recreateDatabase } from '../support.js';

// Storage of 30 days of 5-minute open-order snapshots: validity intervals (what the service stores) vs a
// full copy of every snapshot. BENCH_ORDER_DAYS days of snapshots are run through the real code; the
// full copy is measured on BENCH_FULL_SNAPSHOTS real snapshots stored in full.
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tidewatch_bench_order_snapshots';
const DAYS = Number(process.env.BENCH_ORDER_DAYS ?? 0.5);
const FULL_SNAPSHOTS = Number(process.env.BENCH_FULL_SNAPSHOTS ?? 12);
const OPEN_ORDERS = 50_000;
/** Share of the open orders that change (canceled or filled out, or partly filled) in each 5 minutes. */
const CHURN = 0.1;
/** Of the changed orders, the share that leaves the book (replaced by a new order); the rest is partly filled. */
const LEAVING = 0.7;
const BLOCKS_PER_PERIOD = 10;
const SNAPSHOTS_30_DAYS = (30 * 24 * 3_600_000) / SNAPSHOT_INTERVAL_MS;
const TARGET_RATIO = 0.15;
const START = Date.UTC(2026, 0, 5);
const COINS = [
  'BTC',
  'ETH',
  'SOL',
  'HYPE',
  'XRP',
  'DOGE',
  'SUI',
  'AVAX',
  'LINK',
  'ARB',
  'OP',
  'WIF',
  'kPEPE',
  'ENA',
  'TIA',
  'xyz:TSLA',
  'xyz:NVDA',
  'ZEC',
  'LTC',
  'BNB',
];
const TRIGGER_TYPES = ['Stop Market', 'Stop Limit', 'Take Profit Market', 'Take Profit Limit'];

interface Resting {
  user: string;
  order: Order;
  builder: { address: string; feeTenthsBp: number } | null;
  /** Remaining size in thousandths. */
  units: number;
}

const size = (units: number) => (units / 1000).toFixed(3);
const nodeIso = (ms: number) => new Date(ms).toISOString();

/** A deterministic exchange whose book holds OPEN_ORDERS orders and churns CHURN of them per 5 minutes. */
class OrderFlow {
  private readonly random = new SeededRandom(7);
  private readonly wallets = Array.from({ length: 5_000 }, () => `0x${this.random.hex(40)}`);
  private readonly builders = Array.from({ length: 5 }, () => `0x${this.random.hex(40)}`);
  private readonly open: Resting[] = [];
  private oid = 300_000_000_000;
  private tid = 1;
  blockNumber = 900_000_000;

  private place(timeMs: number): Resting {
    const units = this.random.int(1_000, 500_000);
    const trigger = this.random.chance(0.1);
    const px = `${this.random.int(1, 99_999)}.${this.random.int(0, 99)}`;
    const order: Order = {
      coin: this.random.pick(COINS),
      side: this.random.chance(0.5) ? 'A' : 'B',
      limitPx: px,
      sz: size(units),
      oid: ++this.oid,
      timestamp: timeMs,
      triggerCondition: trigger ? `Price above ${px}` : 'N/A',
      isTrigger: trigger,
      triggerPx: trigger ? px : '0.0',
      children: [],
      isPositionTpsl: trigger && this.random.chance(0.5),
      reduceOnly: trigger,
      orderType: trigger ? this.random.pick(TRIGGER_TYPES) : 'Limit',
      origSz: size(units),
      tif: trigger ? null : this.random.pick(['Gtc', 'Alo']),
      cloid: this.random.chance(0.5) ? `0x${this.random.hex(32)}` : null,
    };
    const builder = this.random.chance(0.1) ? { address: this.random.pick(this.builders), feeTenthsBp: 10 } : null;
    return { user: this.random.pick(this.wallets), order, builder, units };
  }

  private status(r: Resting, status: string, timeMs: number, index: number): NodeOrderStatusEvent {
    return {
      index,
      time: nodeIso(timeMs),
      timeMs,
      user: r.user,
      hash: null,
      builder: r.builder,
      status,
      order: { ...r.order, sz: size(r.units) },
    };
  }

  private fill(r: Resting, units: number, timeMs: number, index: number): NodeFillEvent {
    const fill: Fill = {
      coin: r.order.coin,
      px: r.order.limitPx,
      sz: size(units),
      side: r.order.side,
      time: timeMs,
      startPosition: '0.0',
      dir: 'Open Long',
      closedPnl: '0.0',
      hash: `0x${'0'.repeat(64)}`,
      oid: r.order.oid,
      crossed: false,
      fee: '0.0',
      tid: this.tid++,
      cloid: null,
      feeToken: 'USDC',
      twapId: null,
      builder: null,
      builderFee: null,
      liquidation: null,
    };
    return { index, address: r.user, fill };
  }

  /** The blocks of the 5 minutes starting at `startMs`: the first period fills the book, later ones churn it. */
  period(startMs: number): Array<NodeOrderStatusesBlock | NodeFillsBlock> {
    const statuses: Array<(timeMs: number, index: number) => NodeOrderStatusEvent> = [];
    const fills: Array<(timeMs: number, index: number) => NodeFillEvent> = [];
    if (this.open.length === 0) {
      for (let i = 0; i < OPEN_ORDERS; i++) {
        const r = this.place(startMs);
        this.open.push(r);
        statuses.push((t, i) => this.status(r, 'open', t, i));
      }
    } else {
      const changed = Math.round(OPEN_ORDERS * CHURN);
      // Distinct orders: the changed ones are taken out of the pick list, and the partly filled put back.
      const picked = Array.from({ length: changed }, () => {
        const at = this.random.int(0, this.open.length - 1);
        const r = this.open[at]!;
        this.open[at] = this.open[this.open.length - 1]!;
        this.open.pop();
        return r;
      });
      picked.forEach((r, k) => {
        if (k < changed * LEAVING || r.units < 2) {
          statuses.push((t, i) => this.status(r, this.random.chance(0.8) ? 'canceled' : 'filled', t, i));
          const fresh = this.place(startMs);
          this.open.push(fresh);
          statuses.push((t, i) => this.status(fresh, 'open', t, i));
        } else {
          const units = Math.max(1, Math.floor(r.units / 4));
          r.units -= units;
          this.open.push(r);
          fills.push((t, i) => this.fill(r, units, t, i));
        }
      });
    }
    const blocks: Array<NodeOrderStatusesBlock | NodeFillsBlock> = [];
    for (let b = 0; b < BLOCKS_PER_PERIOD; b++) {
      const timeMs = startMs + 1_000 + b * (SNAPSHOT_INTERVAL_MS / BLOCKS_PER_PERIOD);
      const header = {
        blockNumber: ++this.blockNumber,
        blockTime: nodeIso(timeMs),
        blockTimeMs: timeMs,
        localTime: nodeIso(timeMs),
        localTimeMs: timeMs,
      };
      const share = <T>(all: Array<(t: number, i: number) => T>) =>
        all
          .slice(Math.floor((b * all.length) / BLOCKS_PER_PERIOD), Math.floor(((b + 1) * all.length) / BLOCKS_PER_PERIOD))
          .map((make, i) => make(timeMs, i));
      // Both streams have a line in every block, so each batch brings both up to its last block.
      blocks.push({ stream: 'node_fills_by_block', ...header, events: share(fills) });
      blocks.push({ stream: 'node_order_statuses_by_block', ...header, events: share(statuses) });
    }
    return blocks;
  }
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;

export async function orderSnapshotsBenchmark() {
  const periods = Math.round((DAYS * 24 * 3_600_000) / SNAPSHOT_INTERVAL_MS);
  if (!(periods >= 2) || !(FULL_SNAPSHOTS >= 1))
    throw new Error('BENCH_ORDER_DAYS must give 2 snapshots or more (0.01 d) and BENCH_FULL_SNAPSHOTS be 1 or more');
  await recreateDatabase(DATABASE_URL);
  await runMigrations(DATABASE_URL);
  const dataSource = new DataSource(dataSourceOptions(DATABASE_URL));
  await dataSource.initialize();
  try {
    const flow = new OrderFlow();
    const writer = (await openMarketWriteContext(dataSource)).get(OpenOrdersWriter);
    const writeMs: number[] = [];
    let reported = performance.now();
    progress(`${DAYS} days = ${periods} snapshots of ${OPEN_ORDERS} open orders, ${CHURN * 100} % changing per 5 minutes`);
    // Period p's blocks lie before boundary p+1; the batch of period p+1 passes that boundary, so the
    // last period only closes the run (its own snapshot would need one more batch).
    for (let p = 0; p <= periods; p++) {
      const blocks = flow.period(START + p * SNAPSHOT_INTERVAL_MS);
      const started = performance.now();
      await dataSource.transaction((q) => writer.write(q, 'bench', blocks));
      if (p > 0) writeMs.push(performance.now() - started);
      // The run passes 5 minutes of exchange time in about a second, far faster than autovacuum looks
      // (once a minute). In real time autovacuum cleans the churning tables (current versions, the book)
      // about every 2 snapshots (20 % of their rows dead); done here at that pace, or their files bloat
      // in a way they would not in service.
      if (p % 2 === 1) await dataSource.query(`VACUUM open_order_intervals_current, open_orders`);
      if (performance.now() - reported > 10_000 || p === periods) {
        reported = performance.now();
        progress(`snapshot ${p}/${periods}, median write of a 5-minute batch ${median(writeMs).toFixed(0)} ms`);
      }
    }

    progress('vacuum analyze, then sizes');
    await dataSource.query(`VACUUM ANALYZE open_order_intervals_current, open_order_intervals_closed`);
    // The current versions (one per open order) are a fixed cost; the closed versions grow with time.
    const measure = async (partition: string): Promise<{ rows: number; bytes: number }> => {
      const [r] = await dataSource.query(
        `SELECT count(*)::bigint AS rows, pg_total_relation_size('${partition}')::bigint AS bytes FROM ${partition}`,
      );
      return { rows: Number(r.rows), bytes: Number(r.bytes) };
    };
    const current = await measure('open_order_intervals_current');
    const closed = await measure('open_order_intervals_closed');
    const snapshotCount = (await dataSource.query(`SELECT count(*)::int AS n FROM open_order_snapshots`))[0].n;
    if (snapshotCount !== periods) throw new Error(`expected ${periods} snapshots, found ${snapshotCount}`);
    // The first snapshot closes nothing; every later one closes the versions that changed since the one before.
    const closedPerSnapshot = closed.rows / (periods - 1);
    const closedRows30 = closedPerSnapshot * (SNAPSHOTS_30_DAYS - 1);
    const bytes = current.bytes + closed.bytes;
    const bytes30 = current.bytes + (closed.bytes / closed.rows) * closedRows30;

    // The full copy: the same columns plus snapshot_ts, keyed and indexed for the same reads (a snapshot
    // by (address, oid), by coin, by oid), filled with the real last snapshots of the run.
    progress(`storing ${FULL_SNAPSHOTS} snapshots in full`);
    const columns = `oid, height, timestamp, builder_fee, is_trigger, is_position_tpsl, reduce_only, side, address, coin, limit_px, sz, orig_sz,
                     trigger_condition, trigger_px, order_type, tif, cloid, builder, children`;
    await dataSource.query(
      `CREATE TABLE full_order_snapshots AS SELECT valid_from AS snapshot_ts, ${columns} FROM open_order_intervals WITH NO DATA`,
    );
    await dataSource.query(`ALTER TABLE full_order_snapshots ADD PRIMARY KEY (snapshot_ts, address, oid)`);
    await dataSource.query(`CREATE INDEX ON full_order_snapshots (snapshot_ts, coin, address, oid)`);
    await dataSource.query(`CREATE INDEX ON full_order_snapshots (snapshot_ts, oid)`);
    const times: Array<{ snapshot_ts: Date }> = await dataSource.query(
      `SELECT snapshot_ts FROM open_order_snapshots ORDER BY snapshot_ts DESC LIMIT $1`,
      [FULL_SNAPSHOTS],
    );
    for (const { snapshot_ts } of times.reverse()) {
      await dataSource.query(
        `INSERT INTO full_order_snapshots (snapshot_ts, ${columns})
         SELECT $1, ${columns} FROM open_order_intervals WHERE valid_from <= $1 AND (valid_to IS NULL OR valid_to > $1)
         ORDER BY address, oid`,
        [snapshot_ts],
      );
    }
    await dataSource.query(`VACUUM ANALYZE full_order_snapshots`);
    const [full] = await dataSource.query(
      `SELECT count(*)::bigint AS rows, pg_total_relation_size('full_order_snapshots')::bigint AS bytes FROM full_order_snapshots`,
    );
    const fullBytesPerSnapshot = Number(full.bytes) / times.length;
    const fullBytes30 = fullBytesPerSnapshot * SNAPSHOTS_30_DAYS;
    const ratio = bytes30 / fullBytes30;
    progress(`intervals ${gib(bytes30)} vs full ${gib(fullBytes30)} for 30 days: ${(ratio * 100).toFixed(1)} %`);

    return {
      name: 'order-snapshots',
      settings: {
        days: DAYS,
        openOrders: OPEN_ORDERS,
        churnPer5Minutes: CHURN,
        fullSnapshots: times.length,
        snapshots30Days: SNAPSHOTS_30_DAYS,
      },
      ratio,
      passed: ratio < TARGET_RATIO,
      table: [
        {
          storage: 'intervals: current versions',
          measured: `${current.rows} rows, ${mib(current.bytes)}`,
          '30 days': `${current.rows} rows, ${mib(current.bytes)}`,
          how: 'measured at the end of the run; one row per open order, so it does not grow with time',
        },
        {
          storage: 'intervals: closed versions',
          measured: `${DAYS} d = ${periods} snapshots: ${closed.rows} rows, ${mib(closed.bytes)} (${(closed.bytes / closed.rows).toFixed(0)} B/row)`,
          '30 days': `${Math.round(closedRows30)} rows, ${gib(closed.bytes * (closedRows30 / closed.rows))}`,
          how: `measured: the real snapshot code over ${DAYS} d; extrapolated: ${closedPerSnapshot.toFixed(0)} closed per snapshot x ${SNAPSHOTS_30_DAYS - 1} at the measured B/row`,
        },
        {
          storage: 'full copy of every snapshot',
          measured: `${times.length} snapshots: ${Number(full.rows)} rows, ${mib(Number(full.bytes))} (${mib(fullBytesPerSnapshot)}/snapshot)`,
          '30 days': `${Math.round((Number(full.rows) / times.length) * SNAPSHOTS_30_DAYS)} rows, ${gib(fullBytes30)}`,
          how: `measured: ${times.length} real snapshots stored in full (PK + coin + oid indexes); extrapolated: x ${SNAPSHOTS_30_DAYS} snapshots`,
        },
        {
          storage: 'intervals (both partitions) / full copy',
          measured: `${mib(bytes)} / ${mib(fullBytesPerSnapshot * periods)} = ${((bytes / (fullBytesPerSnapshot * periods)) * 100).toFixed(1)} % over the ${DAYS} d run`,
          '30 days': `${gib(bytes30)} / ${gib(fullBytes30)} = ${(ratio * 100).toFixed(1)} %`,
          how: `target < ${TARGET_RATIO * 100} %: ${ratio < TARGET_RATIO ? 'met' : 'NOT met'}`,
        },
        {
          storage: 'write of a 5-minute batch incl. its snapshot',
          measured: `median ${median(writeMs).toFixed(0)} ms (${Math.round(OPEN_ORDERS * CHURN * (1 + LEAVING))} status/fill events)`,
          '30 days': '-',
          how: 'OpenOrdersWriter.write in one transaction, Postgres on the same 2-core machine',
        },
      ],
    };
  } finally {
    await dataSource.destroy();
    await dropDatabase(DATABASE_URL);
  }
}
