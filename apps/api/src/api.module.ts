import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AlertsManagementModule } from '#alerts';
import { ApiAccessGuard, ApiAuthModule, DashboardAccountsModule } from '#auth';
import { DatabaseModule, DatabaseSessionModule } from '#database';
import { ExportsModule, FavoritesWriteModule, MarketReadModule } from '#market';
import { Metrics, RuntimeModule } from '#runtime';
import { AppConfig } from '#config';
import { StreamsModule } from '#streams';
import { RequestObserver } from './http/request-observer.js';
import { ReadCache } from './http/read-cache/read-cache.js';
import { registerReadCacheMetrics } from './http/read-cache/read-cache.metrics.js';
import { BuildersController } from './builders/builders.controller.js';
import { HoldersController } from './holders/holders.controller.js';
import { LeaderboardsController } from './leaderboards/leaderboards.controller.js';
import { PositionsHeatmapController } from './cohorts/positions-heatmap.controller.js';
import { SegmentSummaryController } from './cohorts/segment-summary.controller.js';
import { ExportFilesController } from './exports/export-files.controller.js';
import { ExportRetentionRunner } from './exports/export-retention.runner.js';
import { ExportsController } from './exports/exports.controller.js';
import { LiquidationFillsController } from './liquidations/liquidation-fills.controller.js';
import { LiquidationRiskController } from './liquidations/liquidation-risk.controller.js';
import { HealthController } from './operations/health.controller.js';
import { MetricsController } from './operations/metrics.controller.js';
import { PositionMetricsController } from './position-metrics/position-metrics.controller.js';
import { OpenPositionsHistoryController } from './positions/open-positions-history.controller.js';
import { PositionsController } from './positions/positions.controller.js';
import { SegmentsController } from './segments/segments.controller.js';
import { StateStatusController } from './state-status/state-status.controller.js';
import { UsageController } from './usage/usage.controller.js';
import { OrderSnapshotsController } from './orders/order-snapshots.controller.js';
import { ClosedTradesController } from './closed-trades/closed-trades.controller.js';
import { WalletsController } from './wallets/wallets.controller.js';
import { FavoritesController } from './favorites/favorites.controller.js';
import { AccountWalletController } from './accounts/account-wallet.controller.js';
import { AccountSegmentSummaryController } from './accounts/account-segment-summary.controller.js';
import { AlertRulesController } from './events/alert-rules.controller.js';
import { WebhookDeliveriesController } from './events/webhook-deliveries.controller.js';
import { WebhookEndpointsController } from './events/webhook-endpoints.controller.js';
import { DashboardKeysController } from './dashboard/dashboard-keys.controller.js';
import { DashboardKeysService } from './dashboard/dashboard-keys.service.js';
import { DashboardSessionController } from './dashboard/dashboard-session.controller.js';
import { DashboardSessionService } from './dashboard/dashboard-session.service.js';
import { DashboardUsageController } from './dashboard/dashboard-usage.controller.js';
import { StreamsGateway } from './streams/streams.gateway.js';
import { WsTicketsController } from './streams/ws-tickets.controller.js';

@Module({
  imports: [
    RuntimeModule.forApp('api'),
    DatabaseModule,
    DatabaseSessionModule.forApi(),
    ApiAuthModule,
    MarketReadModule,
    FavoritesWriteModule,
    ExportsModule,
    AlertsManagementModule,
    DashboardAccountsModule,
    StreamsModule,
  ],
  controllers: [
    LiquidationFillsController,
    LiquidationRiskController,
    ExportsController,
    ExportFilesController,
    SegmentsController,
    SegmentSummaryController,
    PositionsHeatmapController,
    PositionsController,
    OpenPositionsHistoryController,
    StateStatusController,
    BuildersController,
    LeaderboardsController,
    HoldersController,
    PositionMetricsController,
    UsageController,
    OrderSnapshotsController,
    ClosedTradesController,
    WalletsController,
    FavoritesController,
    AccountWalletController,
    AccountSegmentSummaryController,
    WebhookEndpointsController,
    WebhookDeliveriesController,
    AlertRulesController,
    WsTicketsController,
    HealthController,
    MetricsController,
    DashboardSessionController,
    DashboardKeysController,
    DashboardUsageController,
  ],
  providers: [
    RequestObserver,
    ExportRetentionRunner,
    DashboardSessionService,
    DashboardKeysService,
    StreamsGateway,
    { provide: APP_GUARD, useExisting: ApiAccessGuard },
    {
      provide: ReadCache,
      inject: [AppConfig, Metrics],
      useFactory: (config: AppConfig, metrics: Metrics) => {
        const cache = new ReadCache(config.READ_CACHE_MB * 1024 * 1024);
        registerReadCacheMetrics(metrics.registry, cache);
        return cache;
      },
    },
  ],
})
export class ApiModule {}
