import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotFoundError } from '#errors';
import { SEGMENTS } from '../../segments/segments.js';
import { jsonNumber, jsonNumberOrNull } from '../json-number.js';
import type { CohortPositionWindow, SegmentSummary } from './cohorts.types.js';
import { SegmentSummaryQueries } from './segment-summary.queries.js';

/**
 * A cohort's currently open perp positions, for `GET /api/external/segments/{segmentId}/summary` (and
 * the account route of the same summary). Definitions:
 * - traders in position: the cohort's wallets (size_segment_id or pnl_segment_id = the id) with at least
 *   one counted open position; in profit: those whose counted positions' unrealized PnL sums to > 0;
 * - `positionAge` other than `all` keeps only the wallets that opened at least one of their currently
 *   open positions within that time before the latest state update, and counts all their open positions;
 * - active perp equity: the sum of the traders' perp equity;
 * - exposureRatio = total value / active perp equity; perpBias = (long value - short value) / active perp
 *   equity (the wallet's own perp_bias formula); both rounded to 8 decimals, null when the equity <= 0.
 * A cohort without such wallets has zeros and nulls.
 */
@Injectable()
export class SegmentSummaryService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: SegmentSummaryQueries,
  ) {}

  /** A NotFoundError for an id outside the 16 cohorts. */
  async summary(segmentId: number, positionAge: CohortPositionWindow = 'all'): Promise<SegmentSummary> {
    const segment = SEGMENTS.find((s) => s.id === segmentId);
    if (!segment) throw new NotFoundError(`Unknown segmentId: ${segmentId} (cohorts are 1 to 16)`);
    const row = await this.queries.summary(this.dataSource, segmentId, positionAge);
    const perpBias = jsonNumberOrNull(row.perpBias);
    const exposureRatio = jsonNumberOrNull(row.exposureRatio);
    return {
      segment,
      openPerpsSummary: {
        perpBias,
        exposureRatio,
        countOpenPositions: row.positions,
        countTradersInPosition: row.traders,
        countTradersInProfit: row.tradersInProfit,
        totalValue: jsonNumber(row.value),
        totalLongValue: jsonNumber(row.longValue),
        totalActivePerpEquity: jsonNumber(row.activePerpEquity),
        bySide: [
          { side: 'long', countOpenPositions: row.longPositions, totalValue: jsonNumber(row.longValue) },
          { side: 'short', countOpenPositions: row.shortPositions, totalValue: jsonNumber(row.shortValue) },
        ],
      },
      summary: {
        segmentId,
        countTradersInPosition: row.traders,
        perpBias,
        positionValue: jsonNumber(row.value),
        positionLongValue: jsonNumber(row.longValue),
        positionShortValue: jsonNumber(row.shortValue),
        exposureRatio,
        activePerpEquity: jsonNumber(row.activePerpEquity),
      },
    };
  }
}
