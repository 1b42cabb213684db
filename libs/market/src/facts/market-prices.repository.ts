import { Injectable } from '@nestjs/common';
import type { MarketPriceRow } from './fact-rows.js';
import { type SqlRunner } from '#database';

@Injectable()
export class MarketPricesRepository {
  /**
   * Moves each coin's last price forward only: a replayed or late older block never overwrites a newer
   * price. Expects at most one row per coin (an upsert cannot touch a row twice in one statement).
   */
  async advance(q: SqlRunner, rows: MarketPriceRow[]): Promise<void> {
    if (rows.length === 0) return;
    await q.query(
      `INSERT INTO market_prices (coin, px, time, block_number)
       SELECT * FROM unnest($1::text[], $2::numeric[], $3::timestamptz[], $4::bigint[])
       ON CONFLICT (coin) DO UPDATE SET px = EXCLUDED.px, time = EXCLUDED.time, block_number = EXCLUDED.block_number
       WHERE (EXCLUDED.block_number, EXCLUDED.time) > (market_prices.block_number, market_prices.time)`,
      [rows.map((r) => r.coin), rows.map((r) => r.px), rows.map((r) => r.time), rows.map((r) => r.blockNumber)],
    );
  }
}
