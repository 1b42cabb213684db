import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { ReadVersionsRepository } from '#database';
import { BuilderActivityRepository } from './builders/builder-activity.repository.js';
import { ExchangeVolumeRepository } from './builders/exchange-volume.repository.js';
import { ClosedTradesRepository } from './closed-trades/closed-trades.repository.js';
import { OpenTradeStatesRepository } from './closed-trades/open-trade-states.repository.js';
import { ExchangeFactsWriter } from './facts/exchange-facts.writer.js';
import { FeedCheckpointRepository } from './facts/feed-checkpoint.repository.js';
import { FillsRepository } from './facts/fills.repository.js';
import { FundingPaymentsRepository } from './facts/funding-payments.repository.js';
import { LedgerUpdatesRepository } from './facts/ledger-updates.repository.js';
import { MarketPricesRepository } from './facts/market-prices.repository.js';
import { TwapStatusesRepository } from './facts/twap-statuses.repository.js';
import { HyperliquidApiIngestion } from './ingest/hyperliquid-api.ingestion.js';
import { NodeDirectoryIngestion } from './ingest/node-directory.ingestion.js';
import { CatchUpVacuum } from './ingest/catch-up-vacuum.js';
import { FeedSourceAdapters } from './ingest/feed-source.adapters.js';
import { SimulatedExchangeIngestion } from './ingest/simulated-exchange.ingestion.js';
import { BookedOrderKeys } from './orders/booked-order-keys.js';
import { OpenOrderSnapshotsRepository } from './orders/open-order-snapshots.repository.js';
import { OpenOrdersRepository } from './orders/open-orders.repository.js';
import { OpenOrdersStep } from './orders/open-orders.step.js';
import { OpenOrdersWriter } from './orders/open-orders.writer.js';
import { OrderBacklogRepository } from './orders/order-backlog.repository.js';
import { OrderFeedProgressRepository } from './orders/order-feed-progress.repository.js';
import { FillProjector } from './projections/fill.projector.js';
import { RecentFillsBuffer } from './projections/recent-fills.buffer.js';
import { ProjectionCheckpointRepository } from './projections/projection-checkpoint.repository.js';
import { ProjectionInputsRepository } from './projections/projection-inputs.repository.js';
import { InfoStateUpdates } from './state/info-state.updates.js';
import { KnownWalletsRepository } from './state/known-wallets.repository.js';
import { MarketStateWriter } from './state/market-state.writer.js';
import { PositionsStateRepository } from './state/positions-state.repository.js';
import { StateSnapshotsRepository } from './state/state-snapshots.repository.js';
import { StateStagingRepository } from './state/state-staging.repository.js';
import { StateUpdatesRepository } from './state/state-updates.repository.js';
import { WalletStateRepository } from './state/wallet-state.repository.js';

const REPOSITORIES = [
  FillsRepository,
  TwapStatusesRepository,
  LedgerUpdatesRepository,
  FundingPaymentsRepository,
  MarketPricesRepository,
  FeedCheckpointRepository,
  OpenOrdersRepository,
  OpenOrderSnapshotsRepository,
  OrderFeedProgressRepository,
  OrderBacklogRepository,
  StateStagingRepository,
  WalletStateRepository,
  PositionsStateRepository,
  StateSnapshotsRepository,
  StateUpdatesRepository,
  KnownWalletsRepository,
  ProjectionCheckpointRepository,
  ProjectionInputsRepository,
  OpenTradeStatesRepository,
  ClosedTradesRepository,
  BuilderActivityRepository,
  ExchangeVolumeRepository,
  ReadVersionsRepository,
];

const WRITERS = [
  ExchangeFactsWriter,
  OpenOrdersWriter,
  BookedOrderKeys,
  MarketStateWriter,
  FillProjector,
  NodeDirectoryIngestion,
  SimulatedExchangeIngestion,
  CatchUpVacuum,
  HyperliquidApiIngestion,
  InfoStateUpdates,
];

/**
 * The write side the ingestor runs: repositories, the writers with their registered transaction steps
 * (open orders is the facts writer's first) and after-commit hooks (the fills kept for the projection),
 * the feed ingestions with the adapters of the feed sources, and the fill projector. Needs a
 * DataSource provider (DatabaseModule's in the apps).
 */
@Module({
  providers: [...REPOSITORIES, ...WRITERS, FeedSourceAdapters, OpenOrdersStep, RecentFillsBuffer],
  exports: [...WRITERS, FeedSourceAdapters],
})
export class MarketWriteModule {}

/**
 * The same module on a DataSource the caller opened (benchmarks and tests, which run no app): started,
 * so the steps are registered. Close it when done; the DataSource stays the caller's.
 */
export async function openMarketWriteContext(dataSource: DataSource): Promise<INestApplicationContext> {
  const context = await NestFactory.createApplicationContext(
    {
      module: CallerDataSource,
      imports: [
        {
          module: CallerDataSourceProvider,
          global: true,
          providers: [{ provide: DataSource, useValue: dataSource }],
          exports: [DataSource],
        },
        MarketWriteModule,
      ],
    },
    { logger: false, abortOnError: false },
  );
  await context.init();
  return context;
}

@Module({})
class CallerDataSource {}

@Module({})
class CallerDataSourceProvider {}
