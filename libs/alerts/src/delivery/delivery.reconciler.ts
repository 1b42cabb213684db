import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DeliveryQueue } from '../queue/delivery.queue.js';
import { DeliveriesRepository } from './deliveries.repository.js';

/** A pending row due this long ago without its job having run is taken as lost with Redis. */
const OVERDUE_GRACE_MS = 10_000;
const BATCH = 5_000;

/**
 * Postgres is the truth about deliveries; BullMQ only wakes the workers. The reconciler re-enqueues
 * what Redis lost (a flushed or restarted Redis, an enqueue that failed after a commit) and releases
 * the deliveries held for usage once the consumer's period has reset. An overdue row whose job is still
 * in Redis (a long queue) is left alone; enqueueing is idempotent by job id besides, so several
 * dispatchers may run it at once.
 */
@Injectable()
export class DeliveryReconciler {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveriesRepository,
    private readonly queue: DeliveryQueue,
  ) {}

  /** One pass; returns how many deliveries it enqueued. */
  async reconcile(): Promise<number> {
    const released = await this.deliveries.releaseUsageHolds(this.dataSource, BATCH);
    const overdue = await this.deliveries.overdue(this.dataSource, OVERDUE_GRACE_MS, BATCH);
    await this.queue.enqueue(released);
    return released.length + (await this.queue.enqueueLost(overdue));
  }
}
