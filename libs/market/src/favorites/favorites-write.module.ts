import { Module } from '@nestjs/common';
import { MarketReadModule } from '../read/market-read.module.js';
import { FavoritesRepository } from './favorites.repository.js';
import { FavoritesWriter } from './favorites.writer.js';

/**
 * What the api writes of the market data: the consumers' favourites (the `favorites` domain). The
 * ingestor's writers are MarketWriteModule's; this one runs in the api, beside MarketReadModule.
 */
@Module({
  imports: [MarketReadModule],
  providers: [FavoritesRepository, FavoritesWriter],
  exports: [FavoritesWriter],
})
export class FavoritesWriteModule {}
