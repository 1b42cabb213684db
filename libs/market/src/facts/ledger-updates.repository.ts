import { Injectable } from '@nestjs/common';
import { BulkInsert, type SqlRunner } from '#database';
import type { LedgerUpdateRow } from './fact-rows.js';

// delta and users travel as JSON text: unnest would flatten a two-dimensional users array.
const INSERT = new BulkInsert<LedgerUpdateRow>(
  'ledger_updates',
  'hash text, address text, type text, usdc numeric, delta text, users text, time timestamptz, block_number bigint',
  (r) => [r.hash, r.address, r.type, r.usdc, JSON.stringify(r.delta), JSON.stringify(r.users), r.time, r.blockNumber],
  '(hash, address, type) DO NOTHING',
  { delta: (x) => `${x}::jsonb`, users: (x) => `ARRAY(SELECT jsonb_array_elements_text(${x}::jsonb))` },
);

@Injectable()
export class LedgerUpdatesRepository {
  /** Inserts the updates not stored yet (one row per affected address); returns how many were new. */
  insert(q: SqlRunner, rows: LedgerUpdateRow[]): Promise<number> {
    return INSERT.run(q, rows);
  }
}
