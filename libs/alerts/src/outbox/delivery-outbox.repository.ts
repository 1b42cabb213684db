import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';
import type { MatchedDelivery } from '../alert.types.js';
import { EXPIRY_MS_BY_TYPE } from '../delivery/retry-policy.js';
import type { DeliveryWakeUp } from '../queue/delivery.queue.js';

/**
 * Writes matched deliveries as outbox rows in the transaction of the facts (or state update) that
 * produced them. The delivery id is the key: a replayed block inserts nothing, and only the ids
 * actually inserted are returned for enqueueing.
 */
@Injectable()
export class DeliveryOutboxRepository {
  async insert(q: SqlRunner, deliveries: readonly MatchedDelivery[]): Promise<DeliveryWakeUp[]> {
    if (deliveries.length === 0) return [];
    // Rules tracking the same wallet share one payload object: it is serialised once.
    const serialised = new Map<object, string>();
    const payload = (data: object) => {
      let json = serialised.get(data);
      if (json === undefined) serialised.set(data, (json = JSON.stringify(data)));
      return json;
    };
    const rows: Array<{ delivery_id: string; webhook_endpoint_id: number }> = await q.query(
      `INSERT INTO webhook_deliveries (delivery_id, consumer_id, webhook_endpoint_id, rule_id, event_type, occurred_at, payload, status, expires_at)
       SELECT d.id, d.consumer_id, d.endpoint_id, d.rule_id, d.event_type, timestamptz 'epoch' + d.occurred_ms * interval '1 millisecond', d.payload, 'pending',
              timestamptz 'epoch' + (d.occurred_ms + d.expires_in_ms) * interval '1 millisecond'
       FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::text[], $6::bigint[], $7::text[], $8::bigint[])
            AS d (id, consumer_id, endpoint_id, rule_id, event_type, occurred_ms, payload, expires_in_ms)
       ON CONFLICT (delivery_id) DO NOTHING
       RETURNING delivery_id, webhook_endpoint_id`,
      [
        deliveries.map((d) => d.deliveryId),
        deliveries.map((d) => d.consumerId),
        deliveries.map((d) => d.webhookEndpointId),
        deliveries.map((d) => d.ruleId),
        deliveries.map((d) => d.eventType),
        deliveries.map((d) => d.occurredAtMs),
        deliveries.map((d) => payload(d.data)),
        // News that goes stale (a price crossing, a large order) expires this long after it happened.
        deliveries.map((d) => EXPIRY_MS_BY_TYPE[d.eventType]),
      ],
    );
    return rows.map((r) => ({ deliveryId: r.delivery_id, webhookEndpointId: r.webhook_endpoint_id, attemptsMade: 0 }));
  }
}
