import { Injectable } from '@nestjs/common';
import type { SqlRunner } from './exchange-facts.types.js';
import type { TwapStatusRow } from './fact-rows.js';

const INSERT = `
  WITH inserted AS (
    INSERT INTO twap_statuses (block_number, twap_id, status, description, coin, address, side, sz, executed_sz,
                               executed_ntl, minutes, reduce_only, randomize, timestamp, time)
    SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                         $8::numeric[], $9::numeric[], $10::numeric[], $11::int[], $12::boolean[], $13::boolean[],
                         $14::timestamptz[], $15::timestamptz[])
    ON CONFLICT (twap_id, status, block_number) DO NOTHING
    RETURNING 1
  )
  SELECT count(*)::int AS n FROM inserted`;

@Injectable()
export class TwapStatusesRepository {
  async insert(q: SqlRunner, rows: TwapStatusRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    const result: Array<{ n: number }> = await q.query(INSERT, [
      rows.map((r) => r.blockNumber),
      rows.map((r) => r.twapId),
      rows.map((r) => r.status),
      rows.map((r) => r.description),
      rows.map((r) => r.coin),
      rows.map((r) => r.address),
      rows.map((r) => r.side),
      rows.map((r) => r.sz),
      rows.map((r) => r.executedSz),
      rows.map((r) => r.executedNtl),
      rows.map((r) => r.minutes),
      rows.map((r) => r.reduceOnly),
      rows.map((r) => r.randomize),
      rows.map((r) => r.timestamp),
      rows.map((r) => r.time),
    ]);
    return result[0]!.n;
  }
}
