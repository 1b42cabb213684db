import { hash } from 'node:crypto';
import type { AlertRule, MatchedDelivery } from '../alert.types.js';

/** The stable id of a delivery: SHA-256 hex of the rule and the occurrence's identity. */
export function deliveryIdOf(ruleId: number, identity: string): string {
  // The one-shot digest: a delivery id is made for every matched rule, and a Hash object costs twice as much.
  return hash('sha256', `${ruleId}|${identity}`, 'hex');
}

/**
 * A rule's delivery of one occurrence, named by the occurrence's identity. `data` may be the same
 * object in the deliveries of several rules (the matchers build a payload once): it is read, never changed.
 */
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
