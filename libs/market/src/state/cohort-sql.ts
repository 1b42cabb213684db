import { cohortBounds, COHORTS, type CohortCategory } from '../cohorts/cohorts.js';

/**
 * A SQL CASE giving the cohort id of a numeric expression, built from COHORTS so that SQL and
 * `sizeCohortFor`/`pnlCohortFor` share one definition (lower bound inclusive, upper exclusive).
 * The bounds are integers from the table, so inlining them is safe.
 */
export function cohortCaseSql(category: CohortCategory, value: string): string {
  const branches = COHORTS.filter((s) => s.category === category).map((s) => {
    const [min, max] = cohortBounds(s);
    const tests = [min === undefined ? null : `${value} >= ${min}`, max === undefined ? null : `${value} < ${max}`].filter(Boolean);
    return `WHEN ${tests.join(' AND ')} THEN ${s.id}`;
  });
  // Only a negative perp equity is outside every size range: the smallest wallets' cohort.
  return `(CASE ${branches.join(' ')} ELSE 16 END)`;
}
