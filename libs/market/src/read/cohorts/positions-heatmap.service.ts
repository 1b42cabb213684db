import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SEGMENT_IDS } from '../../segments/segments.js';
import { jsonNumber, jsonNumberOrNull } from '../json-number.js';
import type { CohortPositionWindow, HeatmapCoin, HeatmapSegmentCell, PositionsHeatmap } from './cohorts.types.js';
import { type HeatmapCellRow, PositionsHeatmapQueries } from './positions-heatmap.queries.js';

/** Cohort ids of the `segments` array, in id order. */
const COHORT_IDS = [...SEGMENT_IDS].sort((a, b) => a - b);

/**
 * Open positions per coin and cohort, for `GET /api/external/positions/heatmap`. `openedWithin` other
 * than `all` keeps the positions opened at or after the latest state update's time minus the window. A
 * position counts in its wallet's size cohort and in its pnl cohort (so the 16 cells of a coin add up to
 * twice its totals); the coin's totals count it once. `bias` is the long share by value
 * (totalLongValue / totalValue, 8 decimals), null when totalValue is 0. Coins by totalValue descending,
 * then coin ascending; every coin has 16 cells, zeros for a cohort without positions in it.
 */
@Injectable()
export class PositionsHeatmapService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: PositionsHeatmapQueries,
  ) {}

  async heatmap(openedWithin: CohortPositionWindow = 'all'): Promise<PositionsHeatmap> {
    const rows = await this.queries.latestCells(this.dataSource, openedWithin);
    const heatmap: HeatmapCoin[] = [];
    let cells = new Map<number, HeatmapCellRow>();
    // Rows come grouped by coin in the response order: a coin ends where the next begins.
    rows.forEach((row, i) => {
      cells.set(row.segmentId, row);
      if (rows[i + 1]?.coin === row.coin) return;
      heatmap.push(toCoin(row, cells));
      cells = new Map();
    });
    return { heatmap };
  }
}

function toCoin(row: HeatmapCellRow, cells: Map<number, HeatmapCellRow>): HeatmapCoin {
  return {
    coin: row.coin,
    totalValue: jsonNumber(row.coinValue),
    totalLongValue: jsonNumber(row.coinLongValue),
    totalShortValue: jsonNumber(row.coinShortValue),
    count: row.coinCount,
    countLong: row.coinCountLong,
    countShort: row.coinCount - row.coinCountLong,
    segments: COHORT_IDS.map((segmentId) => toCell(row.coin, segmentId, cells.get(segmentId))),
  };
}

function toCell(coin: string, segmentId: number, cell: HeatmapCellRow | undefined): HeatmapSegmentCell {
  if (!cell) return { segmentId, coin, totalValue: 0, totalLongValue: 0, totalShortValue: 0, count: 0, countLong: 0, countShort: 0, bias: null };
  return {
    segmentId,
    coin,
    totalValue: jsonNumber(cell.value),
    totalLongValue: jsonNumber(cell.longValue),
    totalShortValue: jsonNumber(cell.shortValue),
    count: cell.count,
    countLong: cell.countLong,
    countShort: cell.count - cell.countLong,
    bias: jsonNumberOrNull(cell.bias),
  };
}
