import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '#runtime';
import type { StreamEvent } from '../channels/stream-event.js';
import { streamEventsChannel } from './stream-events.channel.js';

type Listener = (events: StreamEvent[]) => void;

/** An api process's one subscription to the committed events, handed to its websocket sessions. */
@Injectable()
export class StreamEventsSubscriber implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(StreamEventsSubscriber.name);
  private readonly listeners = new Set<Listener>();
  private subscriber?: Redis;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async onModuleInit(): Promise<void> {
    this.subscriber = this.redis.duplicate({ connectionName: `tidewatch-streams-${process.pid}`, enableAutoPipelining: false });
    this.subscriber.on('error', (error: Error) => this.logger.warn(`stream events subscriber: ${error.message}`));
    this.subscriber.on('message', (_channel: string, message: string) => {
      const events = JSON.parse(message) as StreamEvent[];
      for (const listener of this.listeners) listener(events);
    });
    await this.subscriber.subscribe(streamEventsChannel(this.keys));
  }

  onApplicationShutdown(): void {
    this.subscriber?.disconnect();
  }

  listen(listener: Listener): void {
    this.listeners.add(listener);
  }
}
