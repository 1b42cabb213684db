import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JsonText } from '#database';
import type { CohortPositionWindow } from './cohorts.types.js';
import { PositionsHeatmapQueries } from './positions-heatmap.queries.js';

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

  /** The body PositionsHeatmap, rendered by Postgres. */
  async heatmap(openedWithin: CohortPositionWindow = 'all'): Promise<JsonText> {
    return JsonText.object({ heatmap: await this.queries.latest(this.dataSource, openedWithin) });
  }
}
