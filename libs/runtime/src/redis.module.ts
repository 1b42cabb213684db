import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from '#config';
import { createRedisClient, REDIS, RedisKeys } from './redis.js';

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => createRedisClient(config.REDIS_URL, `tidewatch-${process.pid}`),
    },
    { provide: RedisKeys, inject: [AppConfig], useFactory: (config: AppConfig) => new RedisKeys(config.REDIS_PREFIX) },
  ],
  exports: [REDIS, RedisKeys],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
