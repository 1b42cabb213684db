import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '#config';
import { apiPoolSettings, dataSourceOptions, type PoolSettings, type SessionSettings } from './data-source.js';
import { SigningKeys, signingKeysFor } from './secrets/signing-keys.js';
import { SigningSecretRepository } from './secrets/signing-secret.repository.js';
import { KeysetCursorCodec } from './sql/keyset-cursor.js';

/** An app's pool settings (DatabaseSessionModule): its sessions' settings and connection wait; none: the server's, and no limit. */
export const DATABASE_SESSION = Symbol('DATABASE_SESSION');

/**
 * The DataSource every repository's caller passes on, the signing keys (from JWT_SECRET, or from the secret kept
 * in Postgres) and the cursor codec every list route uses. Its pool takes the app's DATABASE_SESSION settings, when
 * the app gives some. (One TypeORM root registration for every app of a process: a second one,
 * as `npm start` runs three apps, is warned about.)
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig, { token: DATABASE_SESSION, optional: true }],
      useFactory: (config: AppConfig, pool?: PoolSettings) => dataSourceOptions(config.DATABASE_URL, pool?.session, pool?.connectionWaitMs),
    }),
  ],
  providers: [
    SigningSecretRepository,
    { provide: SigningKeys, inject: [AppConfig, DataSource, SigningSecretRepository], useFactory: signingKeysFor },
    { provide: KeysetCursorCodec, inject: [SigningKeys], useFactory: (keys: SigningKeys) => new KeysetCursorCodec(keys.listCursors) },
  ],
  exports: [SigningKeys, KeysetCursorCodec],
})
export class DatabaseModule {}

/** Gives an app's DatabaseModule pool its settings: the ingestor's sessions run WRITER_SESSION, the api's `forApi()`. */
@Global()
@Module({})
export class DatabaseSessionModule {
  static of(settings: SessionSettings): DynamicModule {
    const pool: PoolSettings = { session: settings };
    return { module: DatabaseSessionModule, providers: [{ provide: DATABASE_SESSION, useValue: pool }], exports: [DATABASE_SESSION] };
  }

  /** The api's limits from its settings (statement and idle-transaction timeouts, connection wait: `apiPoolSettings`). */
  static forApi(): DynamicModule {
    return {
      module: DatabaseSessionModule,
      providers: [{ provide: DATABASE_SESSION, inject: [AppConfig], useFactory: apiPoolSettings }],
      exports: [DATABASE_SESSION],
    };
  }
}
