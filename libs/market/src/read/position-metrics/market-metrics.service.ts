import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JsonText, KeysetCursorCodec } from '#database';
import { MarketMetricsQueries } from './market-metrics.queries.js';
import { type MarketMetricsPageRequest, POSITION_METRICS_MAX_LIMIT, timeBounds } from './position-metrics.types.js';

/** The cursor's list name: a cursor of another list is refused. */
const LIST = 'position-metrics-general';

/** Market-wide snapshots, one per exchange state update. */
@Injectable()
export class MarketMetricsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: MarketMetricsQueries,
    private readonly cursors: KeysetCursorCodec,
  ) {}

  /**
   * One page, newest first, over [start, end] inclusive, as the body `{metrics: MarketMetric[],
   * nextCursor}`. `end` defaults to now (wall clock, as the contract says); only an `end` the caller
   * gave is checked against `start`, so a `start` in the future with no `end` is an empty list, not an
   * error.
   */
  async page(request: MarketMetricsPageRequest, now = Date.now()): Promise<JsonText> {
    const { start, end } = timeBounds(request.start, request.end);
    const after = request.nextCursor == null ? null : this.cursors.decode(LIST, request.nextCursor, ['number'] as const)[0];
    const page = await this.queries.page(this.dataSource, {
      start,
      end: end ?? now,
      limit: request.limit ?? POSITION_METRICS_MAX_LIMIT,
      after,
    });
    return JsonText.object({ metrics: page.json, nextCursor: page.next && this.cursors.encode(LIST, page.next) });
  }
}
