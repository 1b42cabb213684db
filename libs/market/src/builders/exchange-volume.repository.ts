import { Injectable } from '@nestjs/common';
import { type SqlRunner } from '#database';

// Each trade is two fills, one per side; counting the buyer's counts it once.
const ADD = `
  INSERT INTO exchange_volume_hourly AS t (hour, coin, volume, trades)
  SELECT date_trunc('hour', time, 'UTC'), coin, sum(px * sz), count(*)
  FROM fills
  WHERE block_number > $1 AND block_number <= $2 AND side = 'B'
  GROUP BY 1, 2
  ON CONFLICT (hour, coin) DO UPDATE SET volume = t.volume + EXCLUDED.volume, trades = t.trades + EXCLUDED.trades`;

/** Exchange-wide traded notional per UTC hour and coin (the builder profile's exchange volume). */
@Injectable()
export class ExchangeVolumeRepository {
  /** Adds the trades of blocks (afterBlock, toBlock]. */
  async addFills(q: SqlRunner, afterBlock: number, toBlock: number): Promise<void> {
    await q.query(ADD, [afterBlock, toBlock]);
  }
}
