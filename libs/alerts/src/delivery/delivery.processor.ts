import { Injectable, Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { DeliveryUsageService } from '#auth';
import { AppConfig } from '#config';
import type { DeliveryJobData } from '../queue/delivery-queue.constants.js';
import { DeliveryQueue } from '../queue/delivery.queue.js';
import { sendSignedDelivery, WebhookSender } from '../webhook/index.js';
import { DeliveriesRepository, type AttemptApplied, type AttemptRecord, type DeliveryToSend } from './deliveries.repository.js';
import { DeliveryRows } from './delivery-rows.js';
import { EndpointSlots } from './endpoint-slots.js';
import { MAX_IN_FLIGHT_PER_ENDPOINT, nextAttemptDelayMs } from './retry-policy.js';

/** What became of one job: done (whatever the delivery's fate), or `busy`: the endpoint is at its cap, try again shortly. */
export type DeliveryStep = 'done' | 'busy';

/** A slot outlives the longest request (15 s) so only a dead holder's slot ever expires. */
const SLOT_LEASE_MS = 30_000;
/** Endpoints whose consumer a process keeps in mind; past that it starts over (a read each brings them back). */
const ENDPOINTS_REMEMBERED = 100_000;
/** How long an attempt made is retried to be recorded while Postgres is away (a restart takes seconds). */
const RECORD_RETRY_MS = 30_000;

/**
 * One attempt of one delivery, by the rules: at most DISPATCHER_IN_FLIGHT_PER_CONSUMER requests of one
 * consumer and 10 of one endpoint in flight; a row that is no longer pending is left alone; one whose
 * rule was deleted or paused is cancelled; an expired one expires; a paused or suspended endpoint's
 * delivery is held (sent on resume); a consumer without a usage token left has its delivery held until
 * the period resets; otherwise the delivery is signed, POSTed, the attempt recorded with the delivery's
 * new state in one statement, and the next attempt scheduled when the failure is retryable and the
 * schedule has attempts left.
 */
@Injectable()
export class DeliveryProcessor {
  private readonly logger = new Logger(DeliveryProcessor.name);
  private readonly consumerOfEndpoint = new Map<number, number>();
  private readonly consumerCap: number;

  constructor(
    config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveriesRepository,
    private readonly rows: DeliveryRows,
    private readonly slots: EndpointSlots,
    private readonly usage: DeliveryUsageService,
    private readonly sender: WebhookSender,
    private readonly queue: DeliveryQueue,
  ) {
    this.consumerCap = config.DISPATCHER_IN_FLIGHT_PER_CONSUMER;
  }

  /** Closes the kept-alive connections; the worker calls it once its requests in flight have finished. */
  close(): Promise<void> {
    return this.sender.close();
  }

  async process(job: DeliveryJobData): Promise<DeliveryStep> {
    // An endpoint's consumer never changes, so after the first read a job's consumer is known without one.
    let consumerId = this.consumerOfEndpoint.get(job.webhookEndpointId);
    if (consumerId === undefined) {
      const d = await this.rows.load(job.deliveryId);
      if (!d) return 'done';
      consumerId = this.rememberConsumer(d);
    }
    // The consumer's slot first, without waiting here: a consumer at its cap has its job delayed and
    // holds no worker, so its slow receivers cannot take the slots other consumers' deliveries need.
    const consumerSlot = await this.slots.acquire(consumerId, this.consumerCap, SLOT_LEASE_MS, 'consumer', 0);
    if (consumerSlot === null) return 'busy';
    try {
      return await this.processForConsumer(job);
    } finally {
      await this.slots.release(consumerId, consumerSlot, 'consumer');
    }
  }

  private rememberConsumer(d: DeliveryToSend): number {
    if (this.consumerOfEndpoint.size >= ENDPOINTS_REMEMBERED) this.consumerOfEndpoint.clear();
    this.consumerOfEndpoint.set(d.webhookEndpointId, d.consumerId);
    return d.consumerId;
  }

  private async processForConsumer(job: DeliveryJobData): Promise<DeliveryStep> {
    // Then the endpoint's: a job whose endpoint is at its cap goes back without costing a read.
    const slot = await this.slots.acquire(job.webhookEndpointId, MAX_IN_FLIGHT_PER_ENDPOINT, SLOT_LEASE_MS);
    if (slot === null) return 'busy';
    try {
      const d = await this.rows.load(job.deliveryId);
      if (!d || d.status !== 'pending') return 'done';
      // The rule may have gone after the row was written (a batch matched with the rule index of just before).
      if (!d.ruleActive) await this.deliveries.cancel(this.dataSource, d.deliveryId);
      else if (d.expired) await this.deliveries.expire(this.dataSource, d.deliveryId);
      else if (d.suspended || d.paused)
        await this.deliveries.hold(this.dataSource, d.deliveryId, d.suspended ? 'endpoint_suspended' : 'endpoint_paused');
      else await this.attempt(d);
      return 'done';
    } finally {
      await this.slots.release(job.webhookEndpointId, slot);
    }
  }

  /**
   * Records an attempt that was made, through a Postgres restart: an attempt not recorded leaves its delivery
   * pending, and the reconciler would send it again (a duplicate at the receiver). Recording is idempotent (only
   * a pending row moves), so a statement that committed but lost its answer is safe to repeat. Past
   * RECORD_RETRY_MS it gives up, and the delivery is sent again: at least once.
   */
  private async recordMade(attempt: AttemptRecord): Promise<AttemptApplied> {
    const giveUpAt = Date.now() + RECORD_RETRY_MS;
    for (let waitMs = 250; ; waitMs = Math.min(waitMs * 2, 2_000)) {
      try {
        return await this.rows.record(attempt);
      } catch (error) {
        if (Date.now() + waitMs > giveUpAt) throw error;
        this.logger.warn(`attempt of ${attempt.deliveryId} not recorded yet, retrying: ${(error as Error).message}`);
        await sleep(waitMs);
      }
    }
  }

  private async attempt(d: DeliveryToSend): Promise<void> {
    const reservation = await this.usage.reserve(d.consumerId);
    if (!reservation.reserved) {
      await this.deliveries.hold(this.dataSource, d.deliveryId, 'usage_limit', reservation.resetsAt);
      return;
    }
    let charged = false;
    try {
      const startedAt = new Date();
      const result = await sendSignedDelivery(
        this.sender,
        {
          deliveryId: d.deliveryId,
          consumerId: d.consumerId,
          webhookEndpointId: d.webhookEndpointId,
          eventId: d.ruleId,
          eventType: d.eventType,
          occurredAtMs: d.occurredAtMs,
          payloadJson: d.payload,
        },
        d,
        startedAt.getTime(),
      );
      const attemptsMade = d.attemptCount + 1;
      const retryInMs = result.outcome === 'retryable' ? nextAttemptDelayMs(attemptsMade, result.retryAfterMs) : null;
      const recorded = await this.recordMade({
        deliveryId: d.deliveryId,
        webhookEndpointId: d.webhookEndpointId,
        attempt: d.nextAttemptNumber,
        startedAt,
        durationMs: result.durationMs,
        statusCode: result.statusCode,
        outcome: result.outcome,
        error: result.error,
        responseBody: result.responseBody,
        retryInMs,
      });
      // The usage token is charged by the delivered row (see UsageChargesFlusher), which settles this reservation.
      charged = recorded.applied && result.outcome === 'delivered';
      if (recorded.suspendedNow)
        this.logger.warn(
          `webhook endpoint ${d.webhookEndpointId} suspended after delivery ${d.deliveryId}: ${result.error ?? result.statusCode}`,
        );
      if (recorded.applied && retryInMs !== null) {
        await this.queue
          .enqueue([{ deliveryId: d.deliveryId, webhookEndpointId: d.webhookEndpointId, attemptsMade, delayMs: retryInMs }])
          .catch((error: Error) => {
            this.logger.warn(`retry of ${d.deliveryId} not enqueued (the reconciler will): ${error.message}`);
          });
      }
    } finally {
      if (!charged) await this.usage.release(d.consumerId, reservation.periodStart);
    }
  }
}
