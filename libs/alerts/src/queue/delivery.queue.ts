import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { AppConfig } from '#config';
import { DELIVERY_JOB_OPTIONS, DELIVERY_QUEUE, deliveryJobId, type DeliveryJobData } from './delivery-queue.constants.js';

/** A delivery to (re-)enqueue: its id, the attempts already made, and how long to wait before the next one. */
export interface DeliveryWakeUp {
  deliveryId: string;
  webhookEndpointId: number;
  attemptsMade: number;
  delayMs?: number;
}

/** The longest one producer command may take before `enqueue` rejects (a Redis that accepts connections but does not answer). */
const PRODUCER_COMMAND_TIMEOUT_MS = 5_000;

/**
 * Producer side of the delivery queue (ingestor after-commit hook, reconciler, management retry and
 * resume). Adding is idempotent by job id. The producer never waits for Redis: while it is away `enqueue`
 * rejects at once (no offline queue), and a command Redis does not answer rejects after
 * PRODUCER_COMMAND_TIMEOUT_MS, so an after-commit hook, a request or a shutdown is never held by it. The
 * rows stay pending in Postgres and the reconciler enqueues them once Redis is back, so callers may log and
 * go on.
 */
@Injectable()
export class DeliveryQueue implements OnApplicationShutdown {
  readonly queue: Queue<DeliveryJobData>;
  private readonly connection: Redis;

  constructor(config: AppConfig) {
    this.connection = new Redis(config.REDIS_URL, {
      enableOfflineQueue: false,
      commandTimeout: PRODUCER_COMMAND_TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      connectionName: `tidewatch-delivery-queue-${process.pid}`,
    });
    // Redis away is the callers' to log, once per enqueue that failed: unheard, ioredis would print every
    // reconnection that failed, and an 'error' event without a listener would throw.
    this.connection.on('error', () => undefined);
    this.queue = new Queue<DeliveryJobData>(DELIVERY_QUEUE, {
      connection: this.connection,
      prefix: config.REDIS_PREFIX,
      defaultJobOptions: DELIVERY_JOB_OPTIONS,
    });
    this.queue.on('error', () => undefined);
  }

  async enqueue(items: DeliveryWakeUp[]): Promise<void> {
    if (items.length === 0) return;
    for (let i = 0; i < items.length; i += 1000) {
      await this.queue.addBulk(
        items.slice(i, i + 1000).map((item) => ({
          name: 'deliver',
          data: { deliveryId: item.deliveryId, webhookEndpointId: item.webhookEndpointId },
          opts: {
            ...DELIVERY_JOB_OPTIONS,
            jobId: deliveryJobId(item.deliveryId, item.attemptsMade),
            delay: item.delayMs && item.delayMs > 0 ? Math.round(item.delayMs) : undefined,
          },
        })),
      );
    }
  }

  /**
   * Enqueues only the deliveries whose job is not in Redis (one pipelined EXISTS each): what the
   * reconciler uses, so a long but intact queue is not re-added on every pass. Returns how many.
   */
  async enqueueLost(items: DeliveryWakeUp[]): Promise<number> {
    if (items.length === 0) return 0;
    // The first connection (made at start, when Redis answered the start-up check): without an offline queue a
    // pipeline sent before it would be refused.
    await this.queue.waitUntilReady();
    const pipeline = this.connection.pipeline();
    for (const item of items) pipeline.exists(this.queue.toKey(deliveryJobId(item.deliveryId, item.attemptsMade)));
    const found = (await pipeline.exec()) ?? [];
    const lost = items.filter((_, i) => found[i]?.[1] === 0);
    await this.enqueue(lost);
    return lost.length;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    await this.connection.quit().catch(() => this.connection.disconnect());
  }
}
