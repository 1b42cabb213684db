import { Injectable } from '@nestjs/common';
import { BulkInsert, type SqlRunner } from '#database';
import type { FundingPaymentRow } from './fact-rows.js';

const INSERT = new BulkInsert<FundingPaymentRow>(
  'funding_payments',
  'address text, coin text, usdc numeric, szi numeric, funding_rate numeric, time timestamptz, block_number bigint',
  (r) => [r.address, r.coin, r.usdc, r.szi, r.fundingRate, r.time, r.blockNumber],
  '(address, coin, time) DO NOTHING',
);

@Injectable()
export class FundingPaymentsRepository {
  /** Inserts the payments not stored yet; returns how many were new. */
  insert(q: SqlRunner, rows: FundingPaymentRow[]): Promise<number> {
    return INSERT.run(q, rows);
  }
}
