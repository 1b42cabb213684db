import type { JobsOptions } from 'bullmq';

/** The one BullMQ queue of webhook deliveries; its keys live under the deployment's REDIS_PREFIX. */
export const DELIVERY_QUEUE = 'webhook-deliveries';

/**
 * What a delivery job carries: the row's key, and its endpoint so that a job whose endpoint is at its
 * in-flight cap is put back without reading the row. The row in Postgres is the truth; the job is a wake-up.
 */
export interface DeliveryJobData {
  deliveryId: string;
  webhookEndpointId: number;
}

/**
 * Jobs are removed once done, so a later attempt of the same delivery can be enqueued under its own id;
 * failures are the row's business (attempts are recorded in Postgres), so BullMQ never retries by itself.
 */
export const DELIVERY_JOB_OPTIONS: JobsOptions = { attempts: 1, removeOnComplete: true, removeOnFail: true };

/**
 * The job id of a delivery's next attempt: the deliveryId and the number of attempts already made, so
 * enqueueing the same attempt twice (the after-commit hook and the reconciler, a replayed block) adds
 * one job, and the next attempt is never swallowed by the job of the previous one. BullMQ forbids ':'.
 */
export function deliveryJobId(deliveryId: string, attemptsMade: number): string {
  return `${deliveryId}-${attemptsMade}`;
}
