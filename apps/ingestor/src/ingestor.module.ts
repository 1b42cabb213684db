import { Module } from '@nestjs/common';
import { AlertsOutboxModule } from '#alerts';
import { AppConfig } from '#config';
import { DatabaseModule, DatabaseSessionModule, WRITER_SESSION } from '#database';
import { FeedSource, FeedSourceAdapters, MarketWriteModule } from '#market';
import { JsonLogger, RuntimeModule } from '#runtime';
import { feedSourceFor } from './feed-source.factory.js';
import { FeedRunner } from './feed.runner.js';
import { FillProjectionsRunner } from './fill-projections.runner.js';

/**
 * The single writer of exchange data: the feed the factory chose (with what it runs beside its steps:
 * state updates, and the public-API feed's mid prices) driven by one runner, the projections built from
 * the fills it stored, and the alert matcher's outbox.
 */
@Module({
  imports: [
    RuntimeModule.forApp('ingestor'),
    DatabaseModule,
    DatabaseSessionModule.of(WRITER_SESSION),
    MarketWriteModule,
    AlertsOutboxModule,
  ],
  providers: [
    { provide: FeedSource, inject: [AppConfig, FeedSourceAdapters, JsonLogger], useFactory: feedSourceFor },
    FeedRunner,
    FillProjectionsRunner,
  ],
})
export class IngestorModule {}
