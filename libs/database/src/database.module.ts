import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '#config';
import { dataSourceOptions, type SessionSettings } from './data-source.js';
import { SigningKeys, signingKeysFor } from './secrets/signing-keys.js';
import { SigningSecretRepository } from './secrets/signing-secret.repository.js';
import { KeysetCursorCodec } from './sql/keyset-cursor.js';

/** The session settings an app's connections start with (DatabaseSessionModule); none: the server's. */
export const DATABASE_SESSION = Symbol('DATABASE_SESSION');

/**
 * The DataSource every repository's caller passes on, the signing keys (from JWT_SECRET, or from the secret kept
 * in Postgres) and the cursor codec every list route uses. Its connections start with the app's DATABASE_SESSION
 * settings, when the app gives some. (One TypeORM root registration for every app of a process: a second one,
 * as `npm start` runs three apps, is warned about.)
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig, { token: DATABASE_SESSION, optional: true }],
      useFactory: (config: AppConfig, session?: SessionSettings) => dataSourceOptions(config.DATABASE_URL, session),
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

/** Gives an app's DatabaseModule connections `settings` (the ingestor's: WRITER_SESSION). */
@Global()
@Module({})
export class DatabaseSessionModule {
  static of(settings: SessionSettings): DynamicModule {
    return { module: DatabaseSessionModule, providers: [{ provide: DATABASE_SESSION, useValue: settings }], exports: [DATABASE_SESSION] };
  }
}
