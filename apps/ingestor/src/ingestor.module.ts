import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../../libs/database/src/index.js';
import { RuntimeModule } from '../../../libs/runtime/src/index.js';

/** The single writer of exchange data. Its feed sources and derived state are the exchange-data issue's work. */
@Module({
  imports: [RuntimeModule.forApp('ingestor'), DatabaseModule],
})
export class IngestorModule {}
