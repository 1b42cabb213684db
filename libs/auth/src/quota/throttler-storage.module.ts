import { Module } from '@nestjs/common';
import { RedisThrottlerStorage } from './redis-throttler.storage.js';

/** Lets ThrottlerModule.forRootAsync inject the Redis-backed storage. */
@Module({ providers: [RedisThrottlerStorage], exports: [RedisThrottlerStorage] })
export class ThrottlerStorageModule {}
