import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { REDIS, RedisKeys } from '#runtime';
import { ApiTokenRepository } from './api-token.repository.js';
import { revocationChannel } from './revocation-channel.js';

const FULL_RELOAD_MS = 30_000;

/**
 * The revoked token ids, held in memory so the request path checks revocation without I/O.
 * A revocation is published on Redis and reaches every api process at once; a full reload from
 * Postgres every FULL_RELOAD_MS covers messages lost while a process was disconnected.
 */
@Injectable()
export class RevokedTokensService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(RevokedTokensService.name);
  private revoked = new Set<string>();
  private subscriber?: Redis;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly tokens: ApiTokenRepository,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async onModuleInit(): Promise<void> {
    this.subscriber = this.redis.duplicate({ connectionName: `tidewatch-revocations-${process.pid}`, enableAutoPipelining: false });
    this.subscriber.on('message', (_channel: string, tokenId: string) => this.revoked.add(tokenId));
    this.subscriber.on('error', (error: Error) => this.logger.warn(`revocation subscriber: ${error.message}`));
    await this.subscriber.subscribe(revocationChannel(this.keys));
    await this.reload();
    this.timer = setInterval(
      () => void this.reload().catch((e: Error) => this.logger.warn(`revocation reload: ${e.message}`)),
      FULL_RELOAD_MS,
    );
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.subscriber?.disconnect();
  }

  isRevoked(tokenId: string): boolean {
    return this.revoked.has(tokenId);
  }

  private async reload(): Promise<void> {
    const ids = await this.tokens.revokedIds(this.dataSource);
    const next = new Set(ids);
    for (const id of this.revoked) next.add(id); // keep announcements that raced the query
    this.revoked = next;
  }
}
