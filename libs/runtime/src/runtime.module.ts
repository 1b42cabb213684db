import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig, ConfigModule } from '#config';
import { DependencyHealthService } from './dependency-health.service.js';
import { JsonLogger } from './json-logger.js';
import { Metrics } from './metrics.js';
import { RedisModule } from './redis.module.js';

/** What every app process has: config, Redis, a JSON logger and a metrics registry named after the app. */
@Global()
@Module({})
export class RuntimeModule {
  static forApp(app: string): DynamicModule {
    return {
      module: RuntimeModule,
      imports: [ConfigModule, RedisModule],
      providers: [
        { provide: JsonLogger, inject: [AppConfig], useFactory: (config: AppConfig) => new JsonLogger(config.LOG_LEVEL, app) },
        { provide: Metrics, useFactory: () => new Metrics(app) },
        DependencyHealthService,
      ],
      exports: [ConfigModule, RedisModule, JsonLogger, Metrics, DependencyHealthService],
    };
  }
}
