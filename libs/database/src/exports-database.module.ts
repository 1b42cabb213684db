import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '#config';
import { dataSourceOptions } from './data-source.js';

/** The name of the api's export pool (`@InjectDataSource(EXPORTS_DATA_SOURCE)`). */
export const EXPORTS_DATA_SOURCE = 'exports';

/**
 * A second, small pool (EXPORT_POOL_SIZE connections) that only export builds use. A build holds its
 * connection while it streams a file (seconds for a big coin's CSV); on the main pool twenty of them would
 * hold every connection and the other routes would queue behind them. Here they queue behind each other.
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      name: EXPORTS_DATA_SOURCE,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        const options = dataSourceOptions(config.DATABASE_URL);
        return { ...options, extra: { ...options.extra, max: config.EXPORT_POOL_SIZE } };
      },
    }),
  ],
})
export class ExportsDatabaseModule {}
