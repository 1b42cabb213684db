import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JsonText } from '#database';
import { InvalidInputError } from '#errors';
import { COHORTS } from '../../cohorts/cohorts.js';
import { CoinsService } from '../coins/coins.service.js';
import { OpenPositionsHistoryQueries } from './open-positions-history.queries.js';
import { queryTimeMs } from '../query-time.js';
import { OPEN_POSITIONS_HISTORY_COLUMNS, type OpenPositionsHistoryRequest } from './positions.types.js';

const DEFAULT_LIMIT = 500;
const SIZE_COHORT_IDS = COHORTS.filter((s) => s.category === 'size').map((s) => s.id);

/** The per-coin position-count series: every open position of the coin at each sampled state update. */
@Injectable()
export class OpenPositionsHistoryService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: OpenPositionsHistoryQueries,
    private readonly coins: CoinsService,
  ) {}

  /**
   * Rows newest first: the latest update in [start, end], then one every 2 hours (the newest update at
   * or before each 2-hour UTC boundary), at most `limit` rows, as the body OpenPositionsHistory. An
   * unknown coin is a NotFoundError.
   */
  async history(coinParam: string, request: OpenPositionsHistoryRequest = {}): Promise<JsonText> {
    const start = request.start === undefined ? undefined : queryTimeMs('start', request.start);
    const end = request.end === undefined ? undefined : queryTimeMs('end', request.end);
    if (start !== undefined && end !== undefined && end < start) throw new InvalidInputError('end', 'end must not be before start');
    const coin = await this.coins.resolve(coinParam);
    const data = await this.queries.series(this.dataSource, {
      coin,
      sizeCohortIds: SIZE_COHORT_IDS,
      start,
      end,
      limit: request.limit ?? DEFAULT_LIMIT,
    });
    return JsonText.object({ coin, metrics: JsonText.object({ columns: OPEN_POSITIONS_HISTORY_COLUMNS, data }) });
  }
}
