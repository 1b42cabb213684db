import { describe, expect, it } from '@jest/globals';
import { heatmapBins, heatmapBinWidth } from './liquidation-heatmap.builder.js';

describe('heatmapBinWidth', () => {
  it('is the smallest round step of at least a hundredth of the highest price', () => {
    expect(heatmapBinWidth('100000')).toBe('1000');
    expect(heatmapBinWidth('100001')).toBe('2000');
    expect(heatmapBinWidth('65000')).toBe('1000');
    expect(heatmapBinWidth('180')).toBe('2');
    expect(heatmapBinWidth('240')).toBe('2.5');
    expect(heatmapBinWidth('450')).toBe('5');
    expect(heatmapBinWidth('501')).toBe('10');
    expect(heatmapBinWidth('0.0042')).toBe('0.00005');
  });

  it('refuses a price that is not positive', () => {
    expect(() => heatmapBinWidth('0')).toThrow(RangeError);
  });
});

describe('heatmapBins', () => {
  it('runs from 0 to the bin holding the highest price, with zeros where no position is', () => {
    const bins = heatmapBins('BTC', '2.5', '7.5', [
      { bin: 1, liquidation_value: '1200.5', positions_count: 2, most_impacted_cohort: 4 },
      { bin: 3, liquidation_value: '10', positions_count: 1, most_impacted_cohort: 16 },
    ]);
    expect(bins).toEqual([
      {
        coin: 'BTC',
        priceBinIndex: 0,
        priceBinStart: 0,
        priceBinEnd: 2.5,
        liquidationValue: 0,
        positionsCount: 0,
        mostImpactedSegment: null,
      },
      {
        coin: 'BTC',
        priceBinIndex: 1,
        priceBinStart: 2.5,
        priceBinEnd: 5,
        liquidationValue: 1200.5,
        positionsCount: 2,
        mostImpactedSegment: 4,
      },
      {
        coin: 'BTC',
        priceBinIndex: 2,
        priceBinStart: 5,
        priceBinEnd: 7.5,
        liquidationValue: 0,
        positionsCount: 0,
        mostImpactedSegment: null,
      },
      {
        coin: 'BTC',
        priceBinIndex: 3,
        priceBinStart: 7.5,
        priceBinEnd: 10,
        liquidationValue: 10,
        positionsCount: 1,
        mostImpactedSegment: 16,
      },
    ]);
  });
});
