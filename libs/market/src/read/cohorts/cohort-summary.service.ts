import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotFoundError } from '#errors';
import { COHORTS } from '../../cohorts/cohorts.js';
import { jsonNumber, jsonNumberOrNull } from '../json-number.js';
import type { CohortPositionWindow, CohortSummary } from './cohorts.types.js';
import { CohortSummaryQueries } from './cohort-summary.queries.js';

/**
 * A cohort's currently open perp positions, for `GET /api/external/segments/{segmentId}/summary` (and
 * the account route of the same summary). Definitions:
 * - traders in position: the cohort's wallets (size_cohort_id or pnl_cohort_id = the id) with at least
 *   one counted open position; in profit: those whose counted positions' unrealized PnL sums to > 0;
 * - `positionAge` other than `all` keeps only the wallets that opened at least one of their currently
 *   open positions within that time before the latest state update, and counts all their open positions;
 * - active perp equity: the sum of the traders' perp equity;
 * - exposureRatio = total value / active perp equity; perpBias = (long value - short value) / active perp
 *   equity (the wallet's own perp_bias formula); both rounded to 8 decimals, null when the equity <= 0.
 * A cohort without such wallets has zeros and nulls.
 */
@Injectable()
export class CohortSummaryService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: CohortSummaryQueries,
  ) {}

  /** A NotFoundError for an id outside the 16 cohorts. */
  async summary(cohortId: number, positionAge: CohortPositionWindow = 'all'): Promise<CohortSummary> {
    const cohort = COHORTS.find((c) => c.id === cohortId);
    if (!cohort) throw new NotFoundError(`Unknown segmentId: ${cohortId} (cohorts are 1 to 16)`);
    const row = await this.queries.summary(this.dataSource, cohortId, positionAge);
    const perpBias = jsonNumberOrNull(row.perpBias);
    const exposureRatio = jsonNumberOrNull(row.exposureRatio);
    return {
      segment: cohort,
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
        segmentId: cohortId,
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
