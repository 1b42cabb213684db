import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { AfterCommitHook } from '#database';
import { ExchangeFactsWriter, type FactsBatch } from '#market';
import { REDIS, RedisKeys } from '#runtime';
import { streamEventsOf } from '../channels/stream-events.js';
import { streamEventsChannel } from './stream-events.channel.js';

/** How long the number of listening api processes is trusted before it is asked again. */
const LISTENERS_TTL_MS = 1_000;

/**
 * Publishes a batch's stream events once its facts are committed, so no subscriber sees an event a
 * crash could still take back. A publish that fails (Redis away) is logged: live subscribers miss
 * those events, and the rows stay in Postgres for REST and for a resume. While no api process listens
 * (a catch-up before any api started) no events are built at all, so ingestion pays nothing for them.
 */
@Injectable()
export class StreamEventsPublisher implements AfterCommitHook<FactsBatch>, OnModuleInit {
  readonly name = 'streams-publish';
  private readonly logger = new Logger(StreamEventsPublisher.name);
  private listeners = { count: 0, until: 0 };

  constructor(
    private readonly facts: ExchangeFactsWriter,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  onModuleInit(): void {
    this.facts.steps.registerAfterCommit(this);
  }

  async afterCommit(batch: FactsBatch): Promise<void> {
    if (batch.blocks.length === 0 || !(await this.anyListener())) return;
    const events = streamEventsOf(batch.blocks);
    if (events.length === 0) return;
    await this.redis.publish(streamEventsChannel(this.keys), JSON.stringify(events)).catch((error: Error) => {
      this.logger.warn(`${events.length} stream events committed but not published: ${error.message}`);
    });
  }

  private async anyListener(): Promise<boolean> {
    if (Date.now() >= this.listeners.until) {
      const answer = (await this.redis.pubsub('NUMSUB', streamEventsChannel(this.keys)).catch(() => [])) as [string?, number?];
      this.listeners = { count: Number(answer[1] ?? 0), until: Date.now() + LISTENERS_TTL_MS };
    }
    return this.listeners.count > 0;
  }
}
