import Big from 'big.js';

export type CohortCategory = 'size' | 'pnl';

export interface SizeCriteria {
  minSize?: number;
  maxSize?: number;
}
export interface PnlCriteria {
  minPnl?: number;
  maxPnl?: number;
}

export interface Cohort {
  id: number;
  name: string;
  category: CohortCategory;
  /** An absent bound is unbounded; the lower bound is inclusive, the upper exclusive. */
  criteria: SizeCriteria | PnlCriteria;
  emoji: string;
}

/** the API contract's 16 cohorts, in its table order: size cohorts by perp equity (USD), pnl cohorts by all-time perp PnL (USD). */
export const COHORTS: readonly Cohort[] = Object.freeze([
  { id: 16, name: 'Shrimp', category: 'size', criteria: { minSize: 0, maxSize: 250 }, emoji: '🦐' },
  { id: 1, name: 'Fish', category: 'size', criteria: { minSize: 250, maxSize: 10_000 }, emoji: '🐟' },
  { id: 2, name: 'Dolphin', category: 'size', criteria: { minSize: 10_000, maxSize: 50_000 }, emoji: '🐬' },
  { id: 3, name: 'Apex Predator', category: 'size', criteria: { minSize: 50_000, maxSize: 100_000 }, emoji: '🦈' },
  { id: 4, name: 'Small Whale', category: 'size', criteria: { minSize: 100_000, maxSize: 500_000 }, emoji: '🐋' },
  { id: 5, name: 'Whale', category: 'size', criteria: { minSize: 500_000, maxSize: 1_000_000 }, emoji: '🐳' },
  { id: 6, name: 'Tidal Whale', category: 'size', criteria: { minSize: 1_000_000, maxSize: 5_000_000 }, emoji: '🌊' },
  { id: 7, name: 'Leviathan', category: 'size', criteria: { minSize: 5_000_000 }, emoji: '🐉' },
  { id: 8, name: 'Money Printer', category: 'pnl', criteria: { minPnl: 1_000_000 }, emoji: '🖨️' },
  { id: 9, name: 'Smart Money', category: 'pnl', criteria: { minPnl: 100_000, maxPnl: 1_000_000 }, emoji: '🧠' },
  { id: 10, name: 'Consistent Grinder', category: 'pnl', criteria: { minPnl: 10_000, maxPnl: 100_000 }, emoji: '⚙️' },
  { id: 11, name: 'Humble Earner', category: 'pnl', criteria: { minPnl: 0, maxPnl: 10_000 }, emoji: '🌱' },
  { id: 12, name: 'Exit Liquidity', category: 'pnl', criteria: { minPnl: -10_000, maxPnl: 0 }, emoji: '💧' },
  { id: 13, name: 'Semi-Rekt', category: 'pnl', criteria: { minPnl: -100_000, maxPnl: -10_000 }, emoji: '🩹' },
  { id: 14, name: 'Full Rekt', category: 'pnl', criteria: { minPnl: -1_000_000, maxPnl: -100_000 }, emoji: '💀' },
  { id: 15, name: 'Giga-Rekt', category: 'pnl', criteria: { maxPnl: -1_000_000 }, emoji: '☠️' },
] satisfies Cohort[]);

export const COHORT_IDS: readonly number[] = COHORTS.map((s) => s.id);

/** A cohort's range: lower bound inclusive, upper exclusive; undefined is open. */
export const cohortBounds = (s: Cohort): [min: number | undefined, max: number | undefined] =>
  s.category === 'size'
    ? [(s.criteria as SizeCriteria).minSize, (s.criteria as SizeCriteria).maxSize]
    : [(s.criteria as PnlCriteria).minPnl, (s.criteria as PnlCriteria).maxPnl];

function cohortFor(category: CohortCategory, value: Big.BigSource): number {
  const v = new Big(value);
  for (const cohort of COHORTS) {
    if (cohort.category !== category) continue;
    const [min, max] = cohortBounds(cohort);
    if ((min === undefined || v.gte(min)) && (max === undefined || v.lt(max))) return cohort.id;
  }
  // Only a negative perp equity falls outside every size range; it is the smallest wallet there is.
  return 16;
}

/** Size cohort of a wallet by perp equity (USD, exact decimal). */
export const sizeCohortFor = (perpEquity: Big.BigSource): number => cohortFor('size', perpEquity);

/** PnL cohort of a wallet by all-time perp PnL (USD, exact decimal). */
export const pnlCohortFor = (allTimePnl: Big.BigSource): number => cohortFor('pnl', allTimePnl);
