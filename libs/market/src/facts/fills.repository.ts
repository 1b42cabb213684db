import { Injectable } from '@nestjs/common';
import type { SqlRunner } from './exchange-facts.types.js';
import type { FillRow } from './fact-rows.js';

const COLUMNS: Array<[column: string, type: string, value: (r: FillRow) => unknown]> = [
  ['address', 'text', (r) => r.address],
  ['coin', 'text', (r) => r.coin],
  ['px', 'numeric', (r) => r.px],
  ['sz', 'numeric', (r) => r.sz],
  ['side', 'text', (r) => r.side],
  ['time', 'timestamptz', (r) => r.time],
  ['start_position', 'numeric', (r) => r.startPosition],
  ['dir', 'text', (r) => r.dir],
  ['closed_pnl', 'numeric', (r) => r.closedPnl],
  ['hash', 'text', (r) => r.hash],
  ['oid', 'bigint', (r) => r.oid],
  ['crossed', 'boolean', (r) => r.crossed],
  ['fee', 'numeric', (r) => r.fee],
  ['fee_token', 'text', (r) => r.feeToken],
  ['tid', 'bigint', (r) => r.tid],
  ['cloid', 'text', (r) => r.cloid],
  ['twap_id', 'bigint', (r) => r.twapId],
  ['builder', 'text', (r) => r.builder],
  ['builder_fee', 'numeric', (r) => r.builderFee],
  ['liquidated_user', 'text', (r) => r.liquidatedUser],
  ['liquidation_mark_px', 'numeric', (r) => r.liquidationMarkPx],
  ['liquidation_method', 'text', (r) => r.liquidationMethod],
  ['is_liquidated_side', 'boolean', (r) => r.isLiquidatedSide],
  ['block_number', 'bigint', (r) => r.blockNumber],
  ['block_time', 'timestamptz', (r) => r.blockTime],
];

const NAMES = COLUMNS.map(([c]) => c).join(', ');
const ARRAYS = COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');

// The table's unique key has to include the partition key (time). A fill is unique by (tid, address)
// and its time never changes, so ON CONFLICT on (tid, address, time) is the same guard; NOT EXISTS
// also keeps a (tid, address) out if it were ever stored under another time (in another partition).
const INSERT = `
  WITH inserted AS (
    INSERT INTO fills (${NAMES})
    SELECT DISTINCT ON (x.tid, x.address) ${COLUMNS.map(([c]) => `x.${c}`).join(', ')}
    FROM unnest(${ARRAYS}) AS x(${NAMES})
    WHERE NOT EXISTS (SELECT 1 FROM fills f WHERE f.tid = x.tid AND f.address = x.address)
    ON CONFLICT (tid, address, time) DO NOTHING
    RETURNING 1
  )
  SELECT count(*)::int AS n FROM inserted`;

/** UTC month start of an ISO time: the partition a fill goes to. */
const monthOf = (iso: string): string => `${iso.slice(0, 7)}-01T00:00:00.000Z`;

@Injectable()
export class FillsRepository {
  /** Creates the monthly partitions the rows fall in that do not exist yet (one statement). */
  async ensurePartitions(q: SqlRunner, rows: FillRow[]): Promise<void> {
    const months = [...new Set(rows.map((r) => monthOf(r.time)))];
    if (months.length === 0) return;
    await q.query(`SELECT ensure_fills_partition(m) FROM unnest($1::timestamptz[]) AS m`, [months]);
  }

  /** Inserts the fills not stored yet, in one statement; returns how many were new. */
  async insert(q: SqlRunner, rows: FillRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    const result: Array<{ n: number }> = await q.query(INSERT, COLUMNS.map(([, , value]) => rows.map(value)));
    return result[0]!.n;
  }
}
