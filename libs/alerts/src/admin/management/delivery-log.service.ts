import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { KeysetCursorCodec } from '#database';
import { ConflictError, InvalidInputError, NotFoundError } from '#errors';
import { DeliveryQueue, type DeliveryWakeUp } from '../../queue/delivery.queue.js';
import { DeliveryLogRepository, type DeliveryRecord, type DeliveryStatus } from './delivery-log.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

export const DELIVERY_LOG_DEFAULT_LIMIT = 50;
export const DELIVERY_LOG_MAX_LIMIT = 200;
const REPLAY_WINDOW_MS = 30 * 86_400_000;
const CURSOR_LIST = 'webhook-deliveries';

/** The delivery log of an endpoint, and manual re-sends of failed deliveries. */
@Injectable()
export class DeliveryLogService {
  private readonly logger = new Logger(DeliveryLogService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly log: DeliveryLogRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly cursors: KeysetCursorCodec,
    private readonly queue: DeliveryQueue,
  ) {}

  private async endpoint(consumerId: number, id: number): Promise<void> {
    if (!(await this.endpoints.get(this.dataSource, consumerId, id))) throw new NotFoundError(`webhook endpoint ${id} not found`);
  }

  async list(
    consumerId: number,
    endpointId: number,
    query: { status?: DeliveryStatus; limit?: number; nextCursor?: string },
  ): Promise<{ deliveries: DeliveryRecord[]; nextCursor: string | null }> {
    await this.endpoint(consumerId, endpointId);
    const limit = query.limit ?? DELIVERY_LOG_DEFAULT_LIMIT;
    const after = query.nextCursor
      ? this.cursors.decode(`${CURSOR_LIST}:${endpointId}:${query.status ?? ''}`, query.nextCursor, ['string', 'string'] as const)
      : null;
    const rows = await this.log.page(this.dataSource, endpointId, query.status, limit + 1, after);
    const more = rows.length > limit;
    const page = rows.slice(0, limit);
    const next = more ? this.cursors.encode(`${CURSOR_LIST}:${endpointId}:${query.status ?? ''}`, page[page.length - 1]!.cursorKey) : null;
    return { deliveries: page.map(({ cursorKey: _key, ...record }) => record), nextCursor: next };
  }

  /**
   * Sends a failed delivery again, with a fresh retry schedule. An expired one (or a failed one past its
   * expiry) is a conflict: it is news that went stale, and sending it now would mislead.
   */
  async retry(consumerId: number, deliveryId: string, now = Date.now()): Promise<DeliveryRecord> {
    const current = await this.log.get(this.dataSource, consumerId, deliveryId);
    if (!current) throw new NotFoundError(`delivery ${deliveryId} not found`);
    const pastExpiry = current.expiresAt !== null && Date.parse(current.expiresAt) <= now;
    if (current.status === 'expired' || (current.status === 'failed' && pastExpiry))
      throw new ConflictError(
        `delivery ${deliveryId} expired at ${current.expiresAt}: a ${current.eventType} delivery is not sent later than that after its occurrence`,
      );
    if (current.status !== 'failed')
      throw new InvalidInputError('deliveryId', `delivery ${deliveryId} is ${current.status}: only a failed delivery can be retried`);
    const moved = await this.log.resend(this.dataSource, { deliveryId });
    // It expired between the read and the update: the same conflict.
    if (moved.length === 0) throw new ConflictError(`delivery ${deliveryId} expired at ${current.expiresAt}`);
    await this.enqueue(moved);
    return (await this.log.get(this.dataSource, consumerId, deliveryId))!;
  }

  /** Sends again every failed delivery of the endpoint created at or after `since` that has not passed its expiry. */
  async replay(consumerId: number, endpointId: number, since: unknown, now = Date.now()): Promise<{ replayed: number }> {
    await this.endpoint(consumerId, endpointId);
    const sinceMs = typeof since === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(since) ? Date.parse(since) : NaN;
    if (Number.isNaN(sinceMs)) throw new InvalidInputError('since', 'since is required: an ISO 8601 time such as 2026-11-20T00:00:00Z');
    if (sinceMs > now) throw new InvalidInputError('since', 'since must not be in the future');
    if (sinceMs < now - REPLAY_WINDOW_MS) throw new InvalidInputError('since', 'since must be within the last 30 days');
    const ids = await this.log.resend(this.dataSource, { endpointId, sinceMs });
    await this.enqueue(ids);
    return { replayed: ids.length };
  }

  private async enqueue(ids: DeliveryWakeUp[]): Promise<void> {
    await this.queue.enqueue(ids).catch((error: Error) => {
      this.logger.warn(`${ids.length} re-sent deliveries not enqueued (the reconciler will): ${error.message}`);
    });
  }
}
