import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../../libs/database/src/index.js';
import { ExchangeFactsWriter, NodeDirectoryIngestion } from '../../../libs/market/src/index.js';
import { RuntimeModule } from '../../../libs/runtime/src/index.js';
import { NodeFeedRunner } from './node-feed.runner.js';

/**
 * The single writer of exchange data. With EXCHANGE_SOURCE=node it tails an hl-node directory; the
 * simulator and public-API feeds and the derived state are still to come (issue 3).
 */
@Module({
  imports: [RuntimeModule.forApp('ingestor'), DatabaseModule],
  providers: [ExchangeFactsWriter, NodeDirectoryIngestion, NodeFeedRunner],
})
export class IngestorModule {}
