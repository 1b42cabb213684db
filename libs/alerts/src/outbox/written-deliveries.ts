import { Logger } from '@nestjs/common';
import { DeliveryQueue, type DeliveryWakeUp } from '../queue/delivery.queue.js';

/**
 * The delivery ids a writer's transaction inserted, kept per writer context until its commit, then
 * enqueued. An enqueue that fails (Redis away) is only logged: the rows are pending in Postgres and
 * the dispatcher's reconciler enqueues them again.
 */
export class WrittenDeliveries<C extends object> {
  private readonly written = new WeakMap<C, DeliveryWakeUp[]>();

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly logger: Logger,
  ) {}

  remember(context: C, ids: DeliveryWakeUp[]): void {
    if (ids.length) this.written.set(context, ids);
  }

  async enqueue(context: C): Promise<void> {
    const ids = this.written.get(context);
    if (!ids) return;
    this.written.delete(context);
    await this.queue.enqueue(ids).catch((error: Error) => {
      this.logger.warn(`${ids.length} deliveries stored but not enqueued (the reconciler will): ${error.message}`);
    });
  }
}
