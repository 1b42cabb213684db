import { Injectable } from '@nestjs/common';
import type { MarketPriceRow } from './fact-rows.js';
import { epochMs, type SqlRunner } from '#database';

/** A market's last trade price as stored, with its exchange time. */
export interface StoredPrice {
  px: string;
  timeMs: number;
}

@Injectable()
export class MarketPricesRepository {
  /**
   * Moves each coin's last price forward only: a replayed or late older block never overwrites a newer
   * price. Expects at most one row per coin (an upsert cannot touch a row twice in one statement).
   *
   * Returns the prices stored before this call for the coins given, read in the same statement (every
   * part of a statement sees the snapshot from before its own insert): what a price crossing compares
   * the batch's first tick with.
   */
  async advance(q: SqlRunner, rows: MarketPriceRow[]): Promise<Map<string, StoredPrice>> {
    const previous = new Map<string, StoredPrice>();
    if (rows.length === 0) return previous;
    const stored: Array<{ coin: string; px: string; time_ms: string }> = await q.query(
      `WITH incoming AS (
         SELECT * FROM unnest($1::text[], $2::numeric[], $3::timestamptz[], $4::bigint[]) AS t (coin, px, time, block_number)
       ), moved AS (
         INSERT INTO market_prices (coin, px, time, block_number)
         SELECT coin, px, time, block_number FROM incoming
         ON CONFLICT (coin) DO UPDATE SET px = EXCLUDED.px, time = EXCLUDED.time, block_number = EXCLUDED.block_number
         WHERE (EXCLUDED.block_number, EXCLUDED.time) > (market_prices.block_number, market_prices.time)
       )
       SELECT m.coin, m.px::text AS px, ${epochMs('m.time')} AS time_ms
       FROM market_prices m JOIN incoming USING (coin)`,
      [rows.map((r) => r.coin), rows.map((r) => r.px), rows.map((r) => r.time), rows.map((r) => r.blockNumber)],
    );
    for (const r of stored) previous.set(r.coin, { px: r.px, timeMs: Number(r.time_ms) });
    return previous;
  }
}
