import { Injectable } from '@nestjs/common';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { isoTime, KeysetCursorCodec } from '#database';
import { NotFoundError } from '#errors';
import { SEGMENTS } from '../../segments/segments.js';
import { CoinsService } from '../coins/coins.service.js';
import { jsonNumber } from '../json-number.js';
import { CohortMetricsQueries, type CohortSnapshotRecord, type SampledSnapshotRecord } from './cohort-metrics.queries.js';
import {
  COIN_SERIES_COLUMNS,
  type CohortMetricsPage,
  type CohortMetricsPageRequest,
  type CohortPositionMetric,
  type CoinCohortSeries,
  type CoinSeriesRow,
  POSITION_METRICS_MAX_LIMIT,
  type PositionRecencyTimeframe,
  timeBounds,
} from './position-metrics.types.js';

/** The cursor's list name: a cursor of another list is refused. */
const LIST = 'position-metrics-cohort';

const SEGMENT_IDS = SEGMENTS.map((s) => s.id);

/**
 * Cohort position snapshots of one coin: the paged series of one cohort and the 12-hourly series of all
 * cohorts. There is one point per exchange state update; a cohort that held nothing in the coin at an
 * update has no stored row and reads as zeros.
 */
@Injectable()
export class CohortMetricsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: CohortMetricsQueries,
    private readonly coins: CoinsService,
    private readonly cursors: KeysetCursorCodec,
  ) {}

  /** One page of a cohort's snapshots of `coin`, newest first. Unknown cohort or coin: NotFoundError. */
  async page(request: CohortMetricsPageRequest): Promise<CohortMetricsPage> {
    if (!SEGMENT_IDS.includes(request.segment)) throw new NotFoundError(`Unknown segment: ${request.segment}`);
    const coin = await this.coins.resolve(request.coin);
    const { start, end } = timeBounds(request.start, request.end);
    const after = request.nextCursor == null ? null : this.cursors.decode(LIST, request.nextCursor, ['number'] as const)[0];
    const limit = request.limit ?? POSITION_METRICS_MAX_LIMIT;
    const page = await this.queries.page(this.dataSource, {
      coin,
      segmentId: request.segment,
      timeframe: request.positionRecencyTimeframe ?? 'all',
      start,
      end,
      limit,
      after,
    });
    return {
      metrics: page.rows.map((r) => toMetric(r, coin, request.segment)),
      nextCursor: page.next === null ? null : this.cursors.encode(LIST, [page.next]),
    };
  }

  /** Every cohort's series of `coin` (the cohort table's order), the latest update then one every 12 hours. */
  async coinSeries(coin: string, timeframe: PositionRecencyTimeframe = 'all'): Promise<CoinCohortSeries> {
    const canonical = await this.coins.resolve(coin);
    const rows = await this.queries.sampledEvery12Hours(this.dataSource, canonical, timeframe);
    // The sampled times, newest first; a cohort without a stored row at one of them held nothing then: zeros.
    const times = [...new Set(rows.map((r) => r.created_at))];
    const byCohortAndTime = new Map(rows.filter((r) => r.segment_id !== null).map((r) => [`${r.segment_id}/${r.created_at}`, r]));
    return {
      coin: canonical,
      data: SEGMENTS.map((segment) => ({
        segment,
        metrics: { columns: COIN_SERIES_COLUMNS, data: times.map((time) => toSeriesRow(byCohortAndTime.get(`${segment.id}/${time}`) ?? zeros(time))) },
      })),
    };
  }
}

const zeros = (createdAt: string): SampledSnapshotRecord => ({
  created_at: createdAt,
  segment_id: null,
  position_count: 0,
  position_count_long: 0,
  total_position_value: '0',
  total_position_value_long: '0',
  total_funding: '0',
  total_unrealized_pnl: '0',
  total_position_size: '0',
  total_position_size_long: '0',
});

function toMetric(r: CohortSnapshotRecord, coin: string, segmentId: number): CohortPositionMetric {
  return {
    createdAt: isoTime(Number(r.created_at)),
    coin,
    segmentId,
    positionCount: r.position_count,
    positionCountLong: r.position_count_long,
    totalPositionValue: jsonNumber(r.total_position_value),
    totalPositionValueLong: jsonNumber(r.total_position_value_long),
    totalFunding: jsonNumber(r.total_funding),
    totalUnrealizedPnl: jsonNumber(r.total_unrealized_pnl),
    totalPositionSize: jsonNumber(r.total_position_size),
    totalPositionSizeLong: jsonNumber(r.total_position_size_long),
  };
}

/** The long share by value is an exact decimal ratio (big.js), made a number only here; no value: null. */
function toSeriesRow(r: SampledSnapshotRecord): CoinSeriesRow {
  const total = new Big(r.total_position_value);
  const bias = total.eq(0) ? null : jsonNumber(new Big(r.total_position_value_long).div(total).toString());
  return [
    r.position_count,
    r.position_count_long,
    jsonNumber(r.total_position_value),
    jsonNumber(r.total_position_value_long),
    bias,
    isoTime(Number(r.created_at)),
  ];
}
