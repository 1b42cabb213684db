import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ClosedTradesSummaryQueries, type SummaryScope } from './closed-trades-summary.queries.js';
import { summaryRecord, summaryRecordJson, type ClosedTradesSummaryJson } from './closed-trades-summary.record.js';

const DAY_MS = 24 * 3_600_000;

export const CLOSED_TRADES_SUMMARY_INTERVALS = ['all', '365d', '180d', '90d', '30d', 'last50'] as const;
export type ClosedTradesSummaryInterval = (typeof CLOSED_TRADES_SUMMARY_INTERVALS)[number];

/** Date intervals: trades closed at or after now minus the lookback. `last50`: the newest 50 trades. */
const SCOPES: Record<ClosedTradesSummaryInterval, (nowMs: number) => SummaryScope> = {
  all: () => ({ closedSince: null }),
  '365d': (now) => ({ closedSince: now - 365 * DAY_MS }),
  '180d': (now) => ({ closedSince: now - 180 * DAY_MS }),
  '90d': (now) => ({ closedSince: now - 90 * DAY_MS }),
  '30d': (now) => ({ closedSince: now - 30 * DAY_MS }),
  last50: () => ({ latest: 50 }),
};

export interface ClosedTradesSummaryBody {
  /** Lower-cased, as the trades carry it. */
  address: string;
  interval: ClosedTradesSummaryInterval;
  summary: ClosedTradesSummaryJson;
  /** One record per coin traded in the interval, by coin name (byte order). */
  byCoin: Array<{ coin: string } & ClosedTradesSummaryJson>;
}

@Injectable()
export class ClosedTradesSummaryService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: ClosedTradesSummaryQueries,
  ) {}

  /**
   * A wallet's closed-trade summary over `interval`, overall and per coin. A wallet without trades in it
   * gets a record of zeros and nulls and an empty byCoin.
   */
  async summary(address: string, interval: ClosedTradesSummaryInterval = 'all'): Promise<ClosedTradesSummaryBody> {
    const wallet = address.toLowerCase();
    const { total, byCoin } = await this.queries.aggregate(this.dataSource, wallet, SCOPES[interval](Date.now()));
    return {
      address: wallet,
      interval,
      summary: summaryRecordJson(summaryRecord(total)),
      byCoin: byCoin.map((a) => ({ coin: a.coin!, ...summaryRecordJson(summaryRecord(a)) })),
    };
  }
}
