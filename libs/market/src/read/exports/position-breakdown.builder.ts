import { COHORTS, type SizeCriteria } from '../../cohorts/cohorts.js';
import { jsonNumber } from '../json-number.js';
import type { SizeBucketRow } from './exports.queries.js';

export interface PositionBreakdownBucket {
  sizeSegmentId: number;
  /** The range as a label, e.g. `$250 - $10K`, `$5M+`. */
  size: string;
  minSize: number | null;
  /** Null for the top range, which has no upper bound. */
  maxSize: number | null;
  positionCount: number;
  pastPositionCount: number;
  totalPositionValue: number;
  pastTotalPositionValue: number;
  totalPositionValueLong: number;
  pastTotalPositionValueLong: number;
  /** Value of the positions at or past 75 % of the way from entry to their liquidation price. */
  totalPositionValueNearLiquidation: number;
  pastTotalPositionValueNearLiquidation: number;
}

const usd = (n: number): string => (n >= 1_000_000 ? `$${n / 1_000_000}M` : n >= 1_000 ? `$${n / 1_000}K` : `$${n}`);

/** One bucket per size range, smallest first, zeros where no position is, beside the same figures `past`. */
export function positionBreakdown(now: readonly SizeBucketRow[], past: readonly SizeBucketRow[]): PositionBreakdownBucket[] {
  const nowById = new Map(now.map((r) => [r.size_cohort_id, r]));
  const pastById = new Map(past.map((r) => [r.size_cohort_id, r]));
  return COHORTS.filter((c) => c.category === 'size').map((cohort) => {
    const { minSize, maxSize } = cohort.criteria as SizeCriteria;
    const n = nowById.get(cohort.id);
    const p = pastById.get(cohort.id);
    return {
      sizeSegmentId: cohort.id,
      size: maxSize === undefined ? `${usd(minSize!)}+` : `${usd(minSize ?? 0)} - ${usd(maxSize)}`,
      minSize: minSize ?? null,
      maxSize: maxSize ?? null,
      positionCount: n?.position_count ?? 0,
      pastPositionCount: p?.position_count ?? 0,
      totalPositionValue: jsonNumber(n?.total_position_value ?? 0),
      pastTotalPositionValue: jsonNumber(p?.total_position_value ?? 0),
      totalPositionValueLong: jsonNumber(n?.total_position_value_long ?? 0),
      pastTotalPositionValueLong: jsonNumber(p?.total_position_value_long ?? 0),
      totalPositionValueNearLiquidation: jsonNumber(n?.value_near_liquidation ?? 0),
      pastTotalPositionValueNearLiquidation: jsonNumber(p?.value_near_liquidation ?? 0),
    };
  });
}
