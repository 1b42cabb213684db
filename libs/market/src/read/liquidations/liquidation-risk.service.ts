import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InvalidInputError, NotFoundError } from '#errors';
import { COHORTS } from '../../cohorts/cohorts.js';
import { jsonNumber } from '../json-number.js';
import { LiquidationRiskQueries } from './liquidation-risk.queries.js';
import type { LiquidationRiskPage } from './liquidations.types.js';

export const LIQUIDATION_RISK_DEFAULT_LIMIT = 500;
export const LIQUIDATION_RISK_MAX_LIMIT = 500;
export interface LiquidationRiskRequest {
  /** Coins to skip; default 0. */
  offset?: number;
  /** 1..500; default 500. */
  limit?: number;
}

@Injectable()
export class LiquidationRiskService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: LiquidationRiskQueries,
  ) {}

  /**
   * Per coin, the open positions of the wallets now in cohort `cohortId` (by its category, size or pnl):
   * their total value, the part at risk, and that part as a percentage (0 when the total is 0). Coins by
   * total value descending, then coin ascending. A cohort that does not exist is a NotFoundError.
   *
   * "Within 75 % of its liquidation threshold": a position whose liquidation progress (how far the mark
   * has moved from entry toward the liquidation price, 0 to 1, written at each state update) is 0.75 or
   * more (NEAR_LIQUIDATION_PROGRESS, summed by the state writer). A position without a liquidation price
   * has no progress and is never at risk.
   */
  async page(
    cohortId: number,
    { offset = 0, limit = LIQUIDATION_RISK_DEFAULT_LIMIT }: LiquidationRiskRequest = {},
  ): Promise<LiquidationRiskPage> {
    const cohort = COHORTS.find((c) => c.id === cohortId);
    if (cohort === undefined) throw new NotFoundError(`Unknown segmentId: ${cohortId} (cohorts are 1 to 16)`);
    if (!Number.isInteger(offset) || offset < 0) throw new InvalidInputError('offset', 'offset must be an integer of 0 or more');
    if (!Number.isInteger(limit) || limit < 1 || limit > LIQUIDATION_RISK_MAX_LIMIT) {
      throw new InvalidInputError('limit', `limit must be an integer from 1 to ${LIQUIDATION_RISK_MAX_LIMIT}`);
    }
    const page = await this.queries.byCoin(this.dataSource, { cohortId, offset, limit });
    return {
      totalCount: page.totalCount,
      items: page.items.map((r) => ({
        coin: r.coin,
        totalValue: jsonNumber(r.totalValue),
        riskValue: jsonNumber(r.riskValue),
        percentRisk: jsonNumber(r.percentRisk),
      })),
    };
  }
}
