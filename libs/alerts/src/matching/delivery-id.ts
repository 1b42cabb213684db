import { createHash } from 'node:crypto';
import type { AlertRule, MatchedDelivery } from '../alert.types.js';

/** The stable id of a delivery: SHA-256 hex of the rule and the occurrence's identity. */
export function deliveryIdOf(ruleId: number, identity: string): string {
  return createHash('sha256').update(`${ruleId}|${identity}`).digest('hex');
}

/** A rule's delivery of one occurrence, named by the occurrence's identity. */
export function deliveryOf(rule: AlertRule, identity: string, occurredAtMs: number, data: Record<string, unknown>): MatchedDelivery {
  return {
    deliveryId: deliveryIdOf(rule.id, identity),
    ruleId: rule.id,
    consumerId: rule.consumerId,
    webhookEndpointId: rule.webhookEndpointId,
    eventType: rule.eventType,
    occurredAtMs,
    data,
  };
}
