import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoTime } from '#database';
import { InvalidInputError } from '#errors';
import { SEGMENTS } from '../../segments/segments.js';
import { CoinsService } from '../coins/coins.service.js';
import { jsonNumber } from '../json-number.js';
import { OpenPositionsHistoryQueries } from './open-positions-history.queries.js';
import { queryTimeMs } from '../query-time.js';
import { OPEN_POSITIONS_HISTORY_COLUMNS, type OpenPositionsHistory, type OpenPositionsHistoryRequest } from './positions.types.js';

const DEFAULT_LIMIT = 500;
const SIZE_SEGMENT_IDS = SEGMENTS.filter((s) => s.category === 'size').map((s) => s.id);

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
   * or before each 2-hour UTC boundary), at most `limit` rows. An unknown coin is a NotFoundError.
   */
  async history(coinParam: string, request: OpenPositionsHistoryRequest = {}): Promise<OpenPositionsHistory> {
    const start = request.start === undefined ? undefined : queryTimeMs('start', request.start);
    const end = request.end === undefined ? undefined : queryTimeMs('end', request.end);
    if (start !== undefined && end !== undefined && end < start) throw new InvalidInputError('end', 'end must not be before start');
    const coin = await this.coins.resolve(coinParam);
    const rows = await this.queries.series(this.dataSource, { coin, sizeSegmentIds: SIZE_SEGMENT_IDS, start, end, limit: request.limit ?? DEFAULT_LIMIT });
    return {
      coin,
      metrics: {
        columns: [...OPEN_POSITIONS_HISTORY_COLUMNS],
        data: rows.map((r) => [
          coin,
          isoTime(Number(r.state_time)),
          Number(r.position_count),
          Number(r.position_count_long),
          jsonNumber(r.total_position_value),
          jsonNumber(r.total_position_value_long),
        ]),
      },
    };
  }
}
