import { Injectable } from '@nestjs/common';
import type { SqlRunner } from './exchange-facts.types.js';
import type { LedgerUpdateRow } from './fact-rows.js';

// delta and users travel as JSON text: unnest would flatten a two-dimensional users array.
const INSERT = `
  WITH inserted AS (
    INSERT INTO ledger_updates (hash, address, type, usdc, delta, users, time, block_number)
    SELECT x.hash, x.address, x.type, x.usdc, x.delta::jsonb,
           ARRAY(SELECT jsonb_array_elements_text(x.users::jsonb)), x.time, x.block_number
    FROM unnest($1::text[], $2::text[], $3::text[], $4::numeric[], $5::text[], $6::text[], $7::timestamptz[], $8::bigint[])
      AS x(hash, address, type, usdc, delta, users, time, block_number)
    ON CONFLICT (hash, address, type) DO NOTHING
    RETURNING 1
  )
  SELECT count(*)::int AS n FROM inserted`;

@Injectable()
export class LedgerUpdatesRepository {
  async insert(q: SqlRunner, rows: LedgerUpdateRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    const result: Array<{ n: number }> = await q.query(INSERT, [
      rows.map((r) => r.hash),
      rows.map((r) => r.address),
      rows.map((r) => r.type),
      rows.map((r) => r.usdc),
      rows.map((r) => JSON.stringify(r.delta)),
      rows.map((r) => JSON.stringify(r.users)),
      rows.map((r) => r.time),
      rows.map((r) => r.blockNumber),
    ]);
    return result[0]!.n;
  }
}
