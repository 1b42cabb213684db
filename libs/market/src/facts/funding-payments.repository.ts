import { Injectable } from '@nestjs/common';
import type { SqlRunner } from './exchange-facts.types.js';
import type { FundingPaymentRow } from './fact-rows.js';

const INSERT = `
  WITH inserted AS (
    INSERT INTO funding_payments (address, coin, usdc, szi, funding_rate, time, block_number)
    SELECT * FROM unnest($1::text[], $2::text[], $3::numeric[], $4::numeric[], $5::numeric[], $6::timestamptz[], $7::bigint[])
    ON CONFLICT (address, coin, time) DO NOTHING
    RETURNING 1
  )
  SELECT count(*)::int AS n FROM inserted`;

@Injectable()
export class FundingPaymentsRepository {
  async insert(q: SqlRunner, rows: FundingPaymentRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    const result: Array<{ n: number }> = await q.query(INSERT, [
      rows.map((r) => r.address),
      rows.map((r) => r.coin),
      rows.map((r) => r.usdc),
      rows.map((r) => r.szi),
      rows.map((r) => r.fundingRate),
      rows.map((r) => r.time),
      rows.map((r) => r.blockNumber),
    ]);
    return result[0]!.n;
  }
}
