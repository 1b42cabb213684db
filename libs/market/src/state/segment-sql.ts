import { segmentBounds, SEGMENTS, type SegmentCategory } from '../segments/segments.js';

/**
 * A SQL CASE giving the cohort id of a numeric expression, built from SEGMENTS so that SQL and
 * `sizeSegmentFor`/`pnlSegmentFor` share one definition (lower bound inclusive, upper exclusive).
 * The bounds are integers from the table, so inlining them is safe.
 */
export function segmentCaseSql(category: SegmentCategory, value: string): string {
  const branches = SEGMENTS.filter((s) => s.category === category).map((s) => {
    const [min, max] = segmentBounds(s);
    const tests = [min === undefined ? null : `${value} >= ${min}`, max === undefined ? null : `${value} < ${max}`].filter(Boolean);
    return `WHEN ${tests.join(' AND ')} THEN ${s.id}`;
  });
  // Only a negative perp equity is outside every size range: the smallest wallets' cohort.
  return `(CASE ${branches.join(' ')} ELSE 16 END)`;
}
