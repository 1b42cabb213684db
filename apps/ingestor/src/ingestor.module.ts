import { Module } from '@nestjs/common';
import { AlertsOutboxModule } from '#alerts';
import { AppConfig } from '#config';
import { DatabaseModule, DatabaseSessionModule, WRITER_SESSION } from '#database';
import { FeedSource, FeedSourceAdapters, MarketWriteModule } from '#market';
import { JsonLogger, RuntimeModule } from '#runtime';
import { StreamsPublishModule } from '#streams';
import { feedSourceFor } from './feed-source.factory.js';
import { FeedRunner } from './feed.runner.js';
import { FillProjectionsRunner } from './fill-projections.runner.js';

/** The ingestor's write side with its alert steps, without its runners: also what a test's ingesting process has. */
export const INGESTOR_WRITE_SIDE = [
  RuntimeModule.forApp('ingestor'),
  DatabaseModule,
  DatabaseSessionModule.of(WRITER_SESSION),
  MarketWriteModule,
  AlertsOutboxModule,
  StreamsPublishModule,
];

/**
 * The single writer of exchange data: the feed the factory chose (with what it runs beside its steps:
 * state updates, and the public-API feed's mid prices) driven by one runner, the projections built from
 * the fills it stored, and the alert matcher's outbox.
 */
@Module({
  imports: INGESTOR_WRITE_SIDE,
  providers: [
    { provide: FeedSource, inject: [AppConfig, FeedSourceAdapters, JsonLogger], useFactory: feedSourceFor },
    FeedRunner,
    FillProjectionsRunner,
  ],
})
export class IngestorModule {}
