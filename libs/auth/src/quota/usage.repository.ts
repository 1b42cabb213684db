import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface UsageIncrement {
  consumerId: number;
  periodStart: Date;
  count: number;
}

@Injectable()
export class UsageRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Adds the counts in one statement; rows are created on first use of a period. */
  async add(increments: UsageIncrement[]): Promise<void> {
    if (increments.length === 0) return;
    await this.dataSource.query(
      `INSERT INTO usage (consumer_id, period_start, used)
       SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::bigint[])
       ON CONFLICT (consumer_id, period_start) DO UPDATE SET used = usage.used + EXCLUDED.used`,
      [increments.map((i) => i.consumerId), increments.map((i) => i.periodStart.toISOString()), increments.map((i) => i.count)],
    );
  }

  async used(consumerId: number, periodStart: Date): Promise<number> {
    const rows: Array<{ used: string }> = await this.dataSource.query(
      `SELECT used FROM usage WHERE consumer_id = $1 AND period_start = $2`,
      [consumerId, periodStart.toISOString()],
    );
    return rows.length ? Number(rows[0].used) : 0;
  }
}
