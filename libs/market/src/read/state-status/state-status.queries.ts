import { Injectable } from '@nestjs/common';
import { epochMs, type SqlRunner, ReadsTables } from '#database';

/** The single `state_status` row; times are epoch ms. */
export interface StateStatusRow {
  latestHeight: number | null;
  latestStateTime: number | null;
  processedHeight: number | null;
  processedStateTime: number | null;
  processedAt: number | null;
}

interface StateStatusRecord {
  latest_height: string | null;
  latest_state_time: string | null;
  processed_height: string | null;
  processed_state_time: string | null;
  processed_at: string | null;
}

const toNumber = (value: string | null): number | null => (value === null ? null : Number(value));
// Exchange state times carry microseconds: cut to the millisecond, never rounded up past the state's time.
const ms = (column: string): string => `${epochMs(`date_trunc('milliseconds', ${column})`)} AS ${column}`;

@Injectable()
@ReadsTables('state_status')
export class StateStatusQueries {
  /** Null before the first exchange state was seen. */
  async read(q: SqlRunner): Promise<StateStatusRow | null> {
    const rows: StateStatusRecord[] = await q.query(
      `SELECT latest_height, ${ms('latest_state_time')}, processed_height, ${ms('processed_state_time')}, ${ms('processed_at')}
       FROM state_status WHERE id = 1`,
    );
    const r = rows[0];
    if (!r) return null;
    return {
      latestHeight: toNumber(r.latest_height),
      latestStateTime: toNumber(r.latest_state_time),
      processedHeight: toNumber(r.processed_height),
      processedStateTime: toNumber(r.processed_state_time),
      processedAt: toNumber(r.processed_at),
    };
  }
}
