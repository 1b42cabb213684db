import { Injectable } from '@nestjs/common';
import { BulkInsert, type SqlRunner } from '#database';

export interface UsageIncrement {
  consumerId: number;
  periodStart: Date;
  count: number;
}

const ADD = new BulkInsert<UsageIncrement>(
  'usage',
  'consumer_id int, period_start timestamptz, used bigint',
  (i) => [i.consumerId, i.periodStart.toISOString(), i.count],
  '(consumer_id, period_start) DO UPDATE SET used = t.used + EXCLUDED.used',
);

/** Durable count of usage tokens spent by a consumer in one plan period. */
@Injectable()
export class UsageRepository {
  /**
   * Adds the counts in one statement; a period's row is created on its first use. One increment per
   * (consumer, period) at most: Postgres refuses to update a row twice in one statement.
   */
  async add(q: SqlRunner, increments: UsageIncrement[]): Promise<void> {
    await ADD.run(q, increments);
  }

  async used(q: SqlRunner, consumerId: number, periodStart: Date): Promise<number> {
    const rows: Array<{ used: string }> = await q.query(`SELECT used FROM usage WHERE consumer_id = $1 AND period_start = $2`, [
      consumerId,
      periodStart.toISOString(),
    ]);
    return rows.length ? Number(rows[0]!.used) : 0;
  }
}
