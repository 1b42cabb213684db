import { Foundation1763700000000 } from './1763700000000-foundation.migration.js';
import { ExchangeFacts1763800000000 } from './1763800000000-exchange-facts.migration.js';
import { MarketState1764000000000 } from './1764000000000-market-state.migration.js';
import { FillProjections1763950000000 } from './1763950000000-fill-projections.migration.js';
import { OpenOrders1763900000000 } from './1763900000000-open-orders.migration.js';
import { FillsByWalletMarket1764100000000 } from './1764100000000-fills-by-wallet-market.migration.js';
import { LiquidationFills1764200000000 } from './1764200000000-liquidation-fills.migration.js';
import { PositionMetrics1764300000000 } from './1764300000000-position-metrics.migration.js';
import { PositionsHistory1764400000000 } from './1764400000000-positions-history.migration.js';
import { PositionSizeSnapshots1764500000000 } from './1764500000000-position-size-snapshots.migration.js';
import { AnalyticsIndexes1764600000000 } from './1764600000000-analytics-indexes.migration.js';
import { WalletPnlHistory1764700000000 } from './1764700000000-wallet-pnl-history.migration.js';
import { WalletsList1764800000000 } from './1764800000000-wallets-list.migration.js';
import { Favorites1764900000000 } from './1764900000000-favorites.migration.js';
import { Alerts1765000000000 } from './1765000000000-alerts.migration.js';
import { CohortPrecomputed1765110000000 } from './1765110000000-cohort-precomputed.migration.js';
import { WalletRankings1765300000000 } from './1765300000000-wallet-rankings.migration.js';
import { WalletPnlPeriods1765310000000 } from './1765310000000-wallet-pnl-periods.migration.js';
import { ReadVersions1765400000000 } from './1765400000000-read-versions.migration.js';
import { WalletFavoriteCounts1765420000000 } from './1765420000000-wallet-favorite-counts.migration.js';
import { CohortColumns1765500000000 } from './1765500000000-cohort-columns.migration.js';
import { SigningSecret1765640000000 } from './1765640000000-signing-secret.migration.js';
import { AlertDeliveryLifecycle1765700000000 } from './1765700000000-alert-delivery-lifecycle.migration.js';
import { ExportFiles1765720000000 } from './1765720000000-export-files.migration.js';
import { DashboardAccounts1765800000000 } from './1765800000000-dashboard-accounts.migration.js';

/** In the order they run; a new migration is appended here. */
export const MIGRATIONS = [
  Foundation1763700000000,
  ExchangeFacts1763800000000,
  MarketState1764000000000,
  FillProjections1763950000000,
  OpenOrders1763900000000,
  FillsByWalletMarket1764100000000,
  LiquidationFills1764200000000,
  PositionsHistory1764400000000,
  PositionSizeSnapshots1764500000000,
  PositionMetrics1764300000000,
  WalletPnlHistory1764700000000,
  WalletsList1764800000000,
  Favorites1764900000000,
  AnalyticsIndexes1764600000000,
  Alerts1765000000000,
  CohortPrecomputed1765110000000,
  WalletRankings1765300000000,
  WalletPnlPeriods1765310000000,
  ReadVersions1765400000000,
  WalletFavoriteCounts1765420000000,
  CohortColumns1765500000000,
  SigningSecret1765640000000,
  AlertDeliveryLifecycle1765700000000,
  ExportFiles1765720000000,
  DashboardAccounts1765800000000,
];
