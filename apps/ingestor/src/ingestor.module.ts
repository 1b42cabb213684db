import { Module } from '@nestjs/common';
import { AlertsOutboxModule } from '#alerts';
import { DatabaseModule, DatabaseSessionModule, WRITER_SESSION } from '#database';
import { MarketWriteModule } from '#market';
import { RuntimeModule } from '#runtime';
import { FillProjectionsRunner } from './fill-projections.runner.js';
import { HyperliquidFeedRunner } from './hyperliquid-feed.runner.js';
import { InfoStateRunner } from './info-state.runner.js';
import { MidPricesRunner } from './mid-prices.runner.js';
import { NodeFeedRunner } from './node-feed.runner.js';
import { SimulatorFeedRunner } from './simulator-feed.runner.js';

/**
 * The single writer of exchange data: one feed runner per EXCHANGE_SOURCE (each does nothing unless
 * chosen), the state updates, the projections built from stored fills, the alert matcher's outbox,
 * and (public-API feed) the mid prices that are its price ticks.
 */
@Module({
  imports: [
    RuntimeModule.forApp('ingestor'),
    DatabaseModule,
    DatabaseSessionModule.of(WRITER_SESSION),
    MarketWriteModule,
    AlertsOutboxModule,
  ],
  providers: [NodeFeedRunner, HyperliquidFeedRunner, SimulatorFeedRunner, InfoStateRunner, FillProjectionsRunner, MidPricesRunner],
})
export class IngestorModule {}
