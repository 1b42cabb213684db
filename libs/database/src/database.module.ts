import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '#config';
import { dataSourceOptions } from './data-source.js';
import { KeysetCursorCodec } from './sql/keyset-cursor.js';

/** The DataSource every repository's caller passes on, and the cursor codec every list route uses. */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => dataSourceOptions(config.DATABASE_URL),
    }),
  ],
  providers: [{ provide: KeysetCursorCodec, inject: [AppConfig], useFactory: (config: AppConfig) => new KeysetCursorCodec(config.JWT_SECRET) }],
  exports: [KeysetCursorCodec],
})
export class DatabaseModule {}
