/**
 * The seven event types a consumer can create a rule for, and `state_updated` (no addresses, no filters).
 * A new type does not compile until every place that handles each type has its entry (the matcher, the
 * rule validation, the expiry, the api's description of filters), and alert.types.db-spec.ts fails until
 * a new migration adds it to alert_rules' CHECK.
 */
export const EVENT_TYPES = [
  'position_activity',
  'twap_execution',
  'twap_lifecycle',
  'ledger_update',
  'liquidation',
  'price_crossing',
  'large_market_order',
  'state_updated',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Comparison operators of `ledger_update.amount`, values decimal strings. */
export type AmountFilter = Partial<Record<'eq' | 'gte' | 'gt' | 'lte' | 'lt', string>>;

/**
 * A rule's filters, as stored (JSON) and as the matcher reads them; which keys a type accepts is the
 * rule validator's business. Markets are stored as given (case matters on the exchange: `kPEPE`).
 */
export interface RuleFilters {
  /** position_activity, twap_execution, twap_lifecycle. */
  coin?: string[];
  /** liquidation, large_market_order. */
  markets?: string[];
  /** ledger_update. */
  types?: Array<'deposit' | 'withdraw'>;
  amount?: AmountFilter;
  /** price_crossing. */
  market?: string;
  threshold?: string;
  /** price_crossing: above/below/both; large_market_order: buy/sell/both. */
  direction?: 'above' | 'below' | 'buy' | 'sell' | 'both';
  /** large_market_order (>= 50000) and liquidation (> 0). */
  thresholdUsd?: string;
  /** liquidation. */
  side?: 'long' | 'short' | 'both';
}

/** An active rule as the matcher sees it. Addresses are lower-case; empty = not used / exchange-wide. */
export interface AlertRule {
  id: number;
  consumerId: number;
  webhookEndpointId: number;
  eventType: EventType;
  addresses: string[];
  filters: RuleFilters;
  /** When the rule was created: occurrences with an earlier exchange time never match it. */
  createdAtMs: number;
}

/** One matched occurrence for one rule: what becomes a delivery row and, once sent, the envelope. */
export interface MatchedDelivery {
  /** SHA-256 hex of the rule id and the occurrence's identity: the same blocks give the same id. */
  deliveryId: string;
  ruleId: number;
  consumerId: number;
  webhookEndpointId: number;
  eventType: EventType;
  /** Exchange time of the occurrence, epoch ms (the envelope's `occurredAt` as ISO 8601). */
  occurredAtMs: number;
  /** The type-specific payload, the envelope's `data`. */
  data: Record<string, unknown>;
}
