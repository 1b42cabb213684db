import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '#config';
import { dataSourceOptions, type SessionSettings } from './data-source.js';
import { KeysetCursorCodec } from './sql/keyset-cursor.js';

/**
 * The DataSource every repository's caller passes on, and the cursor codec every list route uses; an
 * app's connections start with its `session` settings (the ingestor's: WRITER_SESSION).
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(session: SessionSettings = {}): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => dataSourceOptions(config.DATABASE_URL, session),
        }),
      ],
      providers: [{ provide: KeysetCursorCodec, inject: [AppConfig], useFactory: (config: AppConfig) => new KeysetCursorCodec(config.JWT_SECRET) }],
      exports: [KeysetCursorCodec],
    };
  }
}
