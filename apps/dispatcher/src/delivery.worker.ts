import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DelayedError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import {
  DELIVERY_QUEUE,
  DeliveryProcessor,
  DeliveryReconciler,
  DeliveryRetention,
  UsageChargesFlusher,
  type DeliveryJobData,
} from '#alerts';
import { AppConfig } from '#config';
import { JsonLogger, WorkLoop } from '#runtime';

/** An endpoint at its in-flight cap (and enough jobs already waiting for it here): the job waits this long, plus jitter, and asks again. */
const BUSY_WAIT_MS = 1_000;
/** A graceful stop waits for the requests in flight this much longer than their own time limit. */
const STOP_MARGIN_MS = 5_000;
/** Held deliveries expire and old rows go within a minute of their time: nobody reads the log to the second. */
const RETENTION_EVERY_MS = 60_000;

/**
 * The dispatcher's transport: a BullMQ worker that hands each delivery job to the processor, the
 * reconciler every few seconds, the usage charges written behind the deliveries, and the retention
 * pass every minute. Shutdown lets
 * the requests in flight finish (BullMQ's close waits for active jobs) and charges what they delivered.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private worker?: Worker<DeliveryJobData>;
  private connection?: Redis;
  private readonly reconcileLoop: WorkLoop;
  private readonly chargeLoop: WorkLoop;
  private readonly retentionLoop: WorkLoop;

  constructor(
    private readonly config: AppConfig,
    private readonly processor: DeliveryProcessor,
    private readonly reconciler: DeliveryReconciler,
    private readonly charges: UsageChargesFlusher,
    private readonly retention: DeliveryRetention,
    private readonly logger: JsonLogger,
  ) {
    const onError = (what: string) => (error: Error) => this.logger.write('warn', `${what} failed`, { error: error.message });
    this.reconcileLoop = new WorkLoop({ idleMs: 5_000, errorMs: 5_000, onError: onError('delivery reconciler') });
    this.chargeLoop = new WorkLoop({ idleMs: 250, errorMs: 2_000, onError: onError('usage charges') });
    this.retentionLoop = new WorkLoop({ idleMs: RETENTION_EVERY_MS, errorMs: RETENTION_EVERY_MS, onError: onError('delivery retention') });
  }

  onApplicationBootstrap(): void {
    this.connection = new Redis(this.config.REDIS_URL, {
      maxRetriesPerRequest: null,
      connectionName: `tidewatch-dispatcher-${process.pid}`,
    });
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
    this.worker.on('failed', (job, error) =>
      this.logger.write('warn', 'delivery job failed', { deliveryId: job?.data.deliveryId, error: error.message }),
    );
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
    this.retentionLoop.start(async () => {
      const { expired, deleted } = await this.retention.sweep();
      if (expired + deleted > 0) this.logger.write('info', 'delivery retention', { expired, deleted });
      return false;
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.closeWorker();
    await this.processor.close();
    await this.reconcileLoop.stop();
    await this.chargeLoop.stop();
    await this.retentionLoop.stop();
    await this.charges
      .flush()
      .catch((error: Error) =>
        this.logger.write('warn', 'usage charges not written at shutdown (the next start writes them)', { error: error.message }),
      );
    await this.connection?.quit().catch(() => this.connection?.disconnect());
  }

  /**
   * BullMQ's close waits for the active jobs, and no request outlives WEBHOOK_TIMEOUT_MS; a close that
   * still has not returned past that (seen rarely under heavy CPU load, cause not found) is left behind
   * so the process can exit. Nothing is lost that way: an unfinished job's row is still pending in
   * Postgres, and its lock lapses, so another dispatcher (or this one's next start) sends it again.
   */
  private async closeWorker(): Promise<void> {
    if (!this.worker) return;
    let timer: NodeJS.Timeout | undefined;
    const graceMs = this.config.WEBHOOK_TIMEOUT_MS + STOP_MARGIN_MS;
    const overran = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs)));
    const closed = this.worker.close().then(
      () => false,
      (error: Error) => (this.logger.write('warn', 'the delivery worker failed to close', { error: error.message }), false),
    );
    if (await Promise.race([closed, overran])) {
      this.logger.write(
        'warn',
        'the delivery worker did not close in time; stopping without it (its unfinished deliveries stay pending and are sent again)',
        { graceMs },
      );
    }
    clearTimeout(timer);
  }
}
