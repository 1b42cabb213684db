import { Module } from '@nestjs/common';
import { ReadVersionsRepository } from '#database';
import { ExportsQueries } from './exports/exports.queries.js';
import { BuildersQueries } from './builders/builders.queries.js';
import { BuildersService } from './builders/builders.service.js';
import { HoldersQueries } from './holders/holders.queries.js';
import { HoldersService } from './holders/holders.service.js';
import { LeaderboardsQueries } from './leaderboards/leaderboards.queries.js';
import { LeaderboardsService } from './leaderboards/leaderboards.service.js';
import { CoinsQueries } from './coins/coins.queries.js';
import { CoinsService } from './coins/coins.service.js';
import { LiquidationFillsQueries } from './liquidations/liquidation-fills.queries.js';
import { LiquidationFillsService } from './liquidations/liquidation-fills.service.js';
import { LiquidationRiskQueries } from './liquidations/liquidation-risk.queries.js';
import { LiquidationRiskService } from './liquidations/liquidation-risk.service.js';
import { CohortsService } from './cohorts/cohorts.service.js';
import { PositionsHeatmapQueries } from './cohorts/positions-heatmap.queries.js';
import { PositionsHeatmapService } from './cohorts/positions-heatmap.service.js';
import { CohortSummaryQueries } from './cohorts/cohort-summary.queries.js';
import { CohortSummaryService } from './cohorts/cohort-summary.service.js';
import { ClosedTradesQueries } from './closed-trades/closed-trades.queries.js';
import { ClosedTradesService } from './closed-trades/closed-trades.service.js';
import { ClosedTradesSummaryQueries } from './closed-trades/closed-trades-summary.queries.js';
import { ClosedTradesSummaryService } from './closed-trades/closed-trades-summary.service.js';
import { OrderSnapshotPagesService } from './orders/order-snapshot-pages.service.js';
import { OrderSnapshotsQueries } from './orders/order-snapshots.queries.js';
import { CohortMetricsQueries } from './position-metrics/cohort-metrics.queries.js';
import { CohortMetricsService } from './position-metrics/cohort-metrics.service.js';
import { MarketMetricsQueries } from './position-metrics/market-metrics.queries.js';
import { MarketMetricsService } from './position-metrics/market-metrics.service.js';
import { OpenPositionsHistoryQueries } from './positions/open-positions-history.queries.js';
import { OpenPositionsHistoryService } from './positions/open-positions-history.service.js';
import { PositionsQueries } from './positions/positions.queries.js';
import { PositionsService } from './positions/positions.service.js';
import { StateStatusQueries } from './state-status/state-status.queries.js';
import { StateStatusService } from './state-status/state-status.service.js';
import { FavoritesQueries } from './favorites/favorites.queries.js';
import { FavoritesService } from './favorites/favorites.service.js';
import { WalletDetailService } from './wallets/wallet-detail.service.js';
import { WalletsQueries } from './wallets/wallets.queries.js';
import { WalletsService } from './wallets/wallets.service.js';

const READ = [
  WalletsQueries,
  WalletsService,
  WalletDetailService,
  FavoritesQueries,
  FavoritesService,
  LiquidationFillsQueries,
  LiquidationFillsService,
  LiquidationRiskQueries,
  LiquidationRiskService,
  ExportsQueries,
  CoinsQueries,
  CoinsService,
  CohortsService,
  StateStatusQueries,
  StateStatusService,
  BuildersQueries,
  BuildersService,
  LeaderboardsQueries,
  LeaderboardsService,
  HoldersQueries,
  HoldersService,
  ClosedTradesQueries,
  ClosedTradesService,
  OrderSnapshotsQueries,
  OrderSnapshotPagesService,
  ClosedTradesSummaryQueries,
  ClosedTradesSummaryService,
  PositionsQueries,
  PositionsService,
  OpenPositionsHistoryQueries,
  OpenPositionsHistoryService,
  CohortSummaryQueries,
  CohortSummaryService,
  PositionsHeatmapQueries,
  PositionsHeatmapService,
  CohortMetricsQueries,
  CohortMetricsService,
  MarketMetricsQueries,
  MarketMetricsService,
  ReadVersionsRepository,
];

/**
 * What the api's routes read: one service per feature with the queries it runs. Needs the DataSource, the
 * KeysetCursorCodec (DatabaseModule's in the apps).
 */
@Module({
  providers: READ,
  exports: READ,
})
export class MarketReadModule {}
