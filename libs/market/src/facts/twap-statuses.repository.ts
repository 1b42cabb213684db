import { Injectable } from '@nestjs/common';
import { BulkInsert, type SqlRunner } from '#database';
import type { TwapStatusRow } from './fact-rows.js';

const INSERT = new BulkInsert<TwapStatusRow>(
  'twap_statuses',
  `block_number bigint, twap_id bigint, status text, description text, coin text, address text, side text, sz numeric,
   executed_sz numeric, executed_ntl numeric, minutes int, reduce_only boolean, randomize boolean, timestamp timestamptz, time timestamptz`,
  (r) => [
    r.blockNumber,
    r.twapId,
    r.status,
    r.description,
    r.coin,
    r.address,
    r.side,
    r.sz,
    r.executedSz,
    r.executedNtl,
    r.minutes,
    r.reduceOnly,
    r.randomize,
    r.timestamp,
    r.time,
  ],
  '(twap_id, status, block_number) DO NOTHING',
);

@Injectable()
export class TwapStatusesRepository {
  /** Inserts the status changes not stored yet; returns how many were new. */
  insert(q: SqlRunner, rows: TwapStatusRow[]): Promise<number> {
    return INSERT.run(q, rows);
  }
}
