import Big from 'big.js';
import type { HeatmapBinRow } from './exports.queries.js';

/** About this many bins span 0 to the highest liquidation price. */
export const HEATMAP_TARGET_BINS = 100;
const NICE_STEPS = ['1', '2', '2.5', '5', '10'];

export interface LiquidationHeatmapBin {
  coin: string;
  priceBinIndex: number;
  priceBinStart: number;
  priceBinEnd: number;
  liquidationValue: number;
  positionsCount: number;
  /** The cohort (size or pnl) holding the most value in the bin; null for a bin without positions. */
  mostImpactedSegment: number | null;
}

/**
 * The bin width for a highest liquidation price: the smallest 1, 2, 2.5 or 5 times a power of ten that
 * is at least a hundredth of it, so bin edges are round prices and about 100 bins cover it.
 */
export function heatmapBinWidth(highest: string): string {
  const raw = new Big(highest).div(HEATMAP_TARGET_BINS);
  if (raw.lte(0)) throw new RangeError(`the highest liquidation price must be positive, got ${highest}`);
  const power = new Big(10).pow(raw.e);
  for (const step of NICE_STEPS) {
    const width = power.times(step);
    if (width.gte(raw)) return width.toString();
  }
  throw new Error('unreachable: 10 x 10^e exceeds any x < 10^(e+1)');
}

/** Contiguous bins from 0 up to the one holding the highest price; bins without positions are zeros. */
export function heatmapBins(coin: string, width: string, highest: string, rows: readonly HeatmapBinRow[]): LiquidationHeatmapBin[] {
  const w = new Big(width);
  const last = new Big(highest).div(w).round(0, Big.roundDown).toNumber();
  const byIndex = new Map(rows.map((r) => [r.bin, r]));
  const bins: LiquidationHeatmapBin[] = [];
  for (let i = 0; i <= last; i++) {
    const row = byIndex.get(i);
    bins.push({
      coin,
      priceBinIndex: i,
      priceBinStart: w.times(i).toNumber(),
      priceBinEnd: w.times(i + 1).toNumber(),
      liquidationValue: row ? Number(row.liquidation_value) : 0,
      positionsCount: row?.positions_count ?? 0,
      mostImpactedSegment: row?.most_impacted_cohort ?? null,
    });
  }
  return bins;
}
