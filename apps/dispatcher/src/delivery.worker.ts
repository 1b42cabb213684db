import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DelayedError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { DELIVERY_QUEUE, DeliveryProcessor, DeliveryReconciler, UsageChargesFlusher, type DeliveryJobData } from '#alerts';
import { AppConfig } from '#config';
import { JsonLogger, WorkLoop } from '#runtime';

/** An endpoint at its in-flight cap (and enough jobs already waiting for it here): the job waits this long, plus jitter, and asks again. */
const BUSY_WAIT_MS = 1_000;

/**
 * The dispatcher's transport: a BullMQ worker that hands each delivery job to the processor, the
 * reconciler every few seconds, and the usage charges written behind the deliveries. Shutdown lets
 * the requests in flight finish (BullMQ's close waits for active jobs) and charges what they delivered.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private worker?: Worker<DeliveryJobData>;
  private connection?: Redis;
  private readonly reconcileLoop: WorkLoop;
  private readonly chargeLoop: WorkLoop;

  constructor(
    private readonly config: AppConfig,
    private readonly processor: DeliveryProcessor,
    private readonly reconciler: DeliveryReconciler,
    private readonly charges: UsageChargesFlusher,
    private readonly logger: JsonLogger,
  ) {
    const onError = (what: string) => (error: Error) => this.logger.write('warn', `${what} failed`, { error: error.message });
    this.reconcileLoop = new WorkLoop({ idleMs: 5_000, errorMs: 5_000, onError: onError('delivery reconciler') });
    this.chargeLoop = new WorkLoop({ idleMs: 250, errorMs: 2_000, onError: onError('usage charges') });
  }

  onApplicationBootstrap(): void {
    this.connection = new Redis(this.config.REDIS_URL, { maxRetriesPerRequest: null, connectionName: `tidewatch-dispatcher-${process.pid}` });
    this.worker = new Worker<DeliveryJobData>(
      DELIVERY_QUEUE,
      async (job, token) => {
        if ((await this.processor.process(job.data)) === 'busy') {
          await job.moveToDelayed(Date.now() + BUSY_WAIT_MS + Math.floor(Math.random() * BUSY_WAIT_MS), token);
          throw new DelayedError();
        }
      },
      { connection: this.connection, prefix: this.config.REDIS_PREFIX, concurrency: this.config.DISPATCHER_CONCURRENCY },
    );
    this.worker.on('failed', (job, error) => this.logger.write('warn', 'delivery job failed', { deliveryId: job?.data.deliveryId, error: error.message }));
    this.worker.on('error', (error) => this.logger.write('warn', 'delivery worker error', { error: error.message }));
    // Both loops wait their idle time after every pass: each pass already takes everything that is due.
    this.reconcileLoop.start(async () => {
      await this.reconciler.reconcile();
      return false;
    });
    this.chargeLoop.start(async () => {
      await this.charges.flush();
      return false;
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.processor.close();
    await this.reconcileLoop.stop();
    await this.chargeLoop.stop();
    await this.charges.flush().catch((error: Error) => this.logger.write('warn', 'usage charges not written at shutdown (the next start writes them)', { error: error.message }));
    await this.connection?.quit().catch(() => this.connection?.disconnect());
  }
}
