export const BUILDER_TIMEFRAMES = ['24h', '7d', '30d', 'all'] as const;
export type BuilderTimeframe = (typeof BUILDER_TIMEFRAMES)[number];

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

const HOURS: Record<Exclude<BuilderTimeframe, 'all'>, number> = { '24h': 24, '7d': 7 * 24, '30d': 30 * 24 };

/** Epoch ms bounds: the period is [from, to), the previous one [prevFrom, from); null = unbounded. */
export interface BuilderWindow {
  from: number | null;
  to: number;
  prevFrom: number | null;
}

/**
 * The period of a timeframe at exchange time `now` (the newest fill, never the wall clock), in whole UTC
 * hours: the hour holding `now` and the ones before it (24, 168 or 720 of them), so every figure is an
 * exact sum of hourly rows. `all` has no previous period.
 */
export function builderWindow(timeframe: BuilderTimeframe, now: number): BuilderWindow {
  const to = Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
  if (timeframe === 'all') return { from: null, to, prevFrom: null };
  const span = HOURS[timeframe] * HOUR_MS;
  return { from: to - span, to, prevFrom: to - 2 * span };
}

/** the API contract's percentile groups, top first. */
export const PERCENTILE_GROUPS = ['Top 1%', '1–5%', '5–10%', '10–25%', '25–50%', 'Rest'] as const;
export type PercentileGroup = (typeof PERCENTILE_GROUPS)[number];
