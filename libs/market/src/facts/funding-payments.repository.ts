import { Injectable } from '@nestjs/common';
import { BulkInsert, CopyFirstInsert, copyText, type SqlRunner } from '#database';
import type { FundingPaymentRow } from './fact-rows.js';

// Also the column order of the COPY lines below.
const INSERT = new BulkInsert<FundingPaymentRow>(
  'funding_payments',
  'address text, coin text, usdc numeric, szi numeric, funding_rate numeric, time timestamptz, block_number bigint',
  (r) => [r.address, r.coin, r.usdc, r.szi, r.fundingRate, r.time, r.blockNumber],
  '(address, coin, time) DO NOTHING',
);

// An hourly funding event pays every open position at once (thousands of rows in one block): by COPY,
// as the fills, unless the batch holds a payment already stored (a replay).
const STORE = new CopyFirstInsert(
  INSERT,
  (r: FundingPaymentRow) => `${r.address}\t${copyText(r.coin)}\t${r.usdc}\t${r.szi}\t${r.fundingRate}\t${r.time}\t${r.blockNumber}\n`,
);

@Injectable()
export class FundingPaymentsRepository {
  /** Inserts the payments not stored yet; returns how many were new. */
  insert(q: SqlRunner, rows: FundingPaymentRow[]): Promise<number> {
    return STORE.run(q, rows);
  }
}
