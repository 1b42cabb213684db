import { Global, Module } from '@nestjs/common';
import { AppConfig, loadConfig } from './app-config.js';

/** Makes the one validated AppConfig injectable everywhere. */
@Global()
@Module({
  providers: [{ provide: AppConfig, useFactory: () => loadConfig() }],
  exports: [AppConfig],
})
export class ConfigModule {}
