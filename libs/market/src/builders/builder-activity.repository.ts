import { Injectable } from '@nestjs/common';
import { type SqlRunner } from '#database';

// Fills of a projection window (block_number in ($1, $2]) routed through a builder. Grouping makes each
// key appear once per statement, as ON CONFLICT DO UPDATE requires; the projector's checkpoint, moved in
// the same transaction, is what keeps a window from being added twice.
const ADD_HOURLY = `
  INSERT INTO builder_activity_hourly AS t (builder, hour, address, coin, volume, revenue, fills)
  SELECT lower(builder), date_trunc('hour', time, 'UTC'), lower(address), coin, sum(px * sz), sum(coalesce(builder_fee, 0)), count(*)
  FROM fills
  WHERE block_number > $1 AND block_number <= $2 AND builder IS NOT NULL
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (builder, hour, address, coin) DO UPDATE
  SET volume = t.volume + EXCLUDED.volume, revenue = t.revenue + EXCLUDED.revenue, fills = t.fills + EXCLUDED.fills`;

const ADD_TOTALS = `
  INSERT INTO builder_totals AS t (builder, first_fill_time, last_fill_time, volume, revenue, fills)
  SELECT lower(builder), min(time), max(time), sum(px * sz), sum(coalesce(builder_fee, 0)), count(*)
  FROM fills
  WHERE block_number > $1 AND block_number <= $2 AND builder IS NOT NULL
  GROUP BY 1
  ON CONFLICT (builder) DO UPDATE
  SET first_fill_time = least(t.first_fill_time, EXCLUDED.first_fill_time),
      last_fill_time = greatest(t.last_fill_time, EXCLUDED.last_fill_time),
      volume = t.volume + EXCLUDED.volume, revenue = t.revenue + EXCLUDED.revenue, fills = t.fills + EXCLUDED.fills`;

@Injectable()
export class BuilderActivityRepository {
  /** Adds the builder fills of blocks (afterBlock, toBlock] to the hourly rows and the totals. */
  async addFills(q: SqlRunner, afterBlock: number, toBlock: number): Promise<void> {
    await q.query(ADD_HOURLY, [afterBlock, toBlock]);
    await q.query(ADD_TOTALS, [afterBlock, toBlock]);
  }
}
