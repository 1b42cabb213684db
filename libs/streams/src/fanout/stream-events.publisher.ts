import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { AfterCommitHook } from '#database';
import { ExchangeFactsWriter, type FactsBatch } from '#market';
import { REDIS, RedisKeys } from '#runtime';
import { streamEventsOf } from '../channels/stream-events.js';
import { streamEventsChannel } from './stream-events.channel.js';

/** How often the number of listening api processes is asked again. */
const LISTENERS_EVERY_MS = 1_000;

/**
 * Publishes a batch's stream events once its facts are committed, so no subscriber sees an event a
 * crash could still take back. Nothing here holds the ingest: the publish is not awaited (ioredis sends a
 * connection's commands in order, so frames keep their order), and the number of listening api processes
 * is asked on a timer, not per batch. A publish that fails (Redis away) is logged: live subscribers miss
 * those events, and the rows stay in Postgres for REST and for a resume. While no api process listens
 * (a catch-up before any api started) no events are built at all, so ingestion pays nothing for them.
 */
@Injectable()
export class StreamEventsPublisher implements AfterCommitHook<FactsBatch>, OnModuleInit, OnModuleDestroy {
  readonly name = 'streams-publish';
  private readonly logger = new Logger(StreamEventsPublisher.name);
  private listeners = 0;
  private timer?: NodeJS.Timeout;
  private asking = false;

  constructor(
    private readonly facts: ExchangeFactsWriter,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  onModuleInit(): void {
    this.facts.steps.registerAfterCommit(this);
    void this.askListeners();
    this.timer = setInterval(() => void this.askListeners(), LISTENERS_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async afterCommit(batch: FactsBatch): Promise<void> {
    if (batch.blocks.length === 0 || this.listeners === 0) return;
    const events = streamEventsOf(batch.blocks);
    if (events.length === 0) return;
    void this.redis.publish(streamEventsChannel(this.keys), JSON.stringify(events)).catch((error: Error) => {
      this.logger.warn(`${events.length} stream events committed but not published: ${error.message}`);
    });
  }

  private async askListeners(): Promise<void> {
    if (this.asking) return; // a Redis that is away answers slowly: one question at a time
    this.asking = true;
    try {
      const answer = (await this.redis.pubsub('NUMSUB', streamEventsChannel(this.keys))) as [string?, number?];
      this.listeners = Number(answer[1] ?? 0);
    } catch {
      // Unknown while Redis is away: the last count stands, and a publish meanwhile fails and is logged.
    } finally {
      this.asking = false;
    }
  }
}
