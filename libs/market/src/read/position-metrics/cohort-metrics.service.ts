import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JsonText, KeysetCursorCodec } from '#database';
import { NotFoundError } from '#errors';
import { COHORT_IDS, COHORTS } from '../../cohorts/cohorts.js';
import { CoinsService } from '../coins/coins.service.js';
import { CohortMetricsQueries } from './cohort-metrics.queries.js';
import {
  COIN_SERIES_COLUMNS,
  type CohortMetricsPageRequest,
  POSITION_METRICS_MAX_LIMIT,
  type PositionRecencyTimeframe,
  timeBounds,
} from './position-metrics.types.js';

/** The cursor's list name: a cursor of another list is refused. */
const LIST = 'position-metrics-cohort';

/** The series of every cohort before the first state update. */
const EMPTY = new JsonText('[]');

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

  /**
   * One page of a cohort's snapshots of `coin`, newest first, as the body `{metrics:
   * CohortPositionMetric[], nextCursor}` (CohortMetricsPage). Unknown cohort or coin: NotFoundError.
   */
  async page(request: CohortMetricsPageRequest): Promise<JsonText> {
    if (!COHORT_IDS.includes(request.segment)) throw new NotFoundError(`Unknown segment: ${request.segment}`);
    const coin = await this.coins.resolve(request.coin);
    const { start, end } = timeBounds(request.start, request.end);
    const after = request.nextCursor == null ? null : this.cursors.decode(LIST, request.nextCursor, ['number'] as const)[0];
    const limit = request.limit ?? POSITION_METRICS_MAX_LIMIT;
    const page = await this.queries.page(this.dataSource, {
      coin,
      cohortId: request.segment,
      timeframe: request.positionRecencyTimeframe ?? 'all',
      start,
      end,
      limit,
      after,
    });
    return JsonText.object({ metrics: page.json, nextCursor: page.next && this.cursors.encode(LIST, page.next) });
  }

  /**
   * Every cohort's series of `coin` (the cohort table's order), the latest update then one every 12
   * hours, as the body CoinCohortSeries: each cohort's rows come rendered by Postgres, the bias too.
   */
  async coinSeries(coin: string, timeframe: PositionRecencyTimeframe = 'all'): Promise<JsonText> {
    const canonical = await this.coins.resolve(coin);
    const series = await this.queries.sampledEvery12Hours(this.dataSource, canonical, timeframe, COHORT_IDS);
    const data = COHORTS.map((cohort) =>
      JsonText.object({
        segment: cohort,
        metrics: JsonText.object({ columns: COIN_SERIES_COLUMNS, data: series.get(cohort.id) ?? EMPTY }),
      }),
    );
    return JsonText.object({ coin: canonical, data: JsonText.array(data) });
  }
}
