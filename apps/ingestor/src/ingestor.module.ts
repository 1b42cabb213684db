import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../../libs/database/src/index.js';
import { ExchangeFactsWriter, InfoStateUpdates, MarketStateWriter, NodeDirectoryIngestion, SimulatedExchangeIngestion } from '../../../libs/market/src/index.js';
import { RuntimeModule } from '../../../libs/runtime/src/index.js';
import { NodeFeedRunner } from './node-feed.runner.js';
import { HyperliquidFeedRunner } from './hyperliquid-feed.runner.js';
import { HyperliquidApiIngestion } from '../../../libs/market/src/ingest/hyperliquid-api.ingestion.js';
import { SimulatorFeedRunner } from './simulator-feed.runner.js';
import { InfoStateRunner } from './info-state.runner.js';
import { FillProjectionsRunner } from './fill-projections.runner.js';

/**
 * The single writer of exchange data: one feed runner per EXCHANGE_SOURCE (each does nothing unless
 * chosen), the state updates, and the projections built from stored fills.
 */
@Module({
  imports: [RuntimeModule.forApp('ingestor'), DatabaseModule],
  providers: [ExchangeFactsWriter, MarketStateWriter, NodeDirectoryIngestion, NodeFeedRunner, HyperliquidApiIngestion, HyperliquidFeedRunner, SimulatedExchangeIngestion, SimulatorFeedRunner, InfoStateUpdates, InfoStateRunner, FillProjectionsRunner],
})
export class IngestorModule {}
