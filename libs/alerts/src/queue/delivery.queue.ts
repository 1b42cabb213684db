import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { AppConfig } from '#config';
import { DELIVERY_JOB_OPTIONS, DELIVERY_QUEUE, deliveryJobId, type DeliveryJobData } from './delivery-queue.constants.js';

/** A delivery to (re-)enqueue: its id, the attempts already made, and how long to wait before the next one. */
export interface DeliveryWakeUp {
  deliveryId: string;
  attemptsMade: number;
  delayMs?: number;
}

/**
 * Producer side of the delivery queue (ingestor after-commit hook, reconciler, management retry and
 * resume). Adding is idempotent by job id; a Redis that is down makes `enqueue` reject, and the
 * reconciler re-enqueues from Postgres later, so callers after a commit may log and go on.
 */
@Injectable()
export class DeliveryQueue implements OnApplicationShutdown {
  readonly queue: Queue<DeliveryJobData>;
  private readonly connection: Redis;

  constructor(config: AppConfig) {
    // BullMQ needs its own connection that never gives up on a command (maxRetriesPerRequest: null).
    this.connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null, connectionName: `tidewatch-delivery-queue-${process.pid}` });
    this.queue = new Queue<DeliveryJobData>(DELIVERY_QUEUE, { connection: this.connection, prefix: config.REDIS_PREFIX, defaultJobOptions: DELIVERY_JOB_OPTIONS });
  }

  async enqueue(items: DeliveryWakeUp[]): Promise<void> {
    if (items.length === 0) return;
    for (let i = 0; i < items.length; i += 1000) {
      await this.queue.addBulk(
        items.slice(i, i + 1000).map((item) => ({
          name: 'deliver',
          data: { deliveryId: item.deliveryId },
          opts: { ...DELIVERY_JOB_OPTIONS, jobId: deliveryJobId(item.deliveryId, item.attemptsMade), delay: item.delayMs && item.delayMs > 0 ? Math.round(item.delayMs) : undefined },
        })),
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    await this.connection.quit().catch(() => this.connection.disconnect());
  }
}
