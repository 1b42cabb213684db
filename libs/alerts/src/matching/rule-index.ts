import type { AlertRule, EventType } from '../alert.types.js';
import { Dec } from './decimal.js';

interface TypeRules {
  byAddress: Map<string, AlertRule[]>;
  /** Rules without addresses: exchange-wide. */
  global: AlertRule[];
  /** The lowest `thresholdUsd` among them (liquidation, large_market_order). */
  lowestThresholdUsd: Dec | null;
}

const NONE: readonly AlertRule[] = [];

export interface PriceRule {
  threshold: Dec;
  rule: AlertRule;
}

/**
 * The active rules, indexed so that matching costs a map lookup per occurrence: by event type, then by
 * tracked address (plus the rules without addresses), and price rules by market in threshold order
 * (a tick then looks only at the thresholds between its previous and its new price).
 */
export class RuleIndex {
  readonly size: number;
  private readonly byType = new Map<EventType, TypeRules>();
  private readonly priceByMarket = new Map<string, PriceRule[]>();
  /** Thresholds parsed once: a block compares them with every candidate. */
  private readonly thresholdsUsd = new Map<number, Dec>();

  constructor(rules: readonly AlertRule[]) {
    this.size = rules.length;
    for (const rule of [...rules].sort((a, b) => a.id - b.id)) {
      if (rule.eventType === 'price_crossing') {
        const market = rule.filters.market!;
        const entry = { threshold: new Dec(rule.filters.threshold!), rule };
        const list = this.priceByMarket.get(market);
        if (list) list.push(entry);
        else this.priceByMarket.set(market, [entry]);
        continue;
      }
      let typed = this.byType.get(rule.eventType);
      if (!typed) this.byType.set(rule.eventType, (typed = { byAddress: new Map(), global: [], lowestThresholdUsd: null }));
      if (rule.filters.thresholdUsd !== undefined) {
        const threshold = new Dec(rule.filters.thresholdUsd);
        this.thresholdsUsd.set(rule.id, threshold);
        if (typed.lowestThresholdUsd === null || threshold.lt(typed.lowestThresholdUsd)) typed.lowestThresholdUsd = threshold;
      }
      if (rule.addresses.length === 0) typed.global.push(rule);
      for (const address of rule.addresses) {
        const list = typed.byAddress.get(address);
        if (list) list.push(rule);
        else typed.byAddress.set(address, [rule]);
      }
    }
    for (const list of this.priceByMarket.values()) list.sort((a, b) => a.threshold.cmp(b.threshold) || a.rule.id - b.rule.id);
  }

  has(type: EventType): boolean {
    return type === 'price_crossing' ? this.priceByMarket.size > 0 : this.byType.has(type);
  }

  /** Rules of `type` that track `address` (lower-case). */
  tracking(type: EventType, address: string): readonly AlertRule[] {
    return this.byType.get(type)?.byAddress.get(address) ?? NONE;
  }

  /** Rules of `type` without addresses. */
  global(type: EventType): readonly AlertRule[] {
    return this.byType.get(type)?.global ?? NONE;
  }

  /** Rules of `type` concerned by `address`: the ones tracking it, then the exchange-wide ones. */
  concerning(type: EventType, address: string): readonly AlertRule[] {
    const typed = this.byType.get(type);
    if (!typed) return NONE;
    const tracking = typed.byAddress.get(address);
    if (!tracking) return typed.global;
    return typed.global.length ? [...tracking, ...typed.global] : tracking;
  }

  /** A rule's `thresholdUsd`, parsed (undefined: it has none). */
  thresholdUsd(rule: AlertRule): Dec | undefined {
    return this.thresholdsUsd.get(rule.id);
  }

  /** The lowest `thresholdUsd` of the rules of `type` (null: none has one). */
  lowestThresholdUsd(type: EventType): Dec | null {
    return this.byType.get(type)?.lowestThresholdUsd ?? null;
  }

  /** Price rules of `market` whose threshold is in [low, high], by rule id. */
  priceRulesBetween(market: string, low: Dec, high: Dec): readonly PriceRule[] {
    const list = this.priceByMarket.get(market);
    if (!list) return [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid]!.threshold.lt(low)) lo = mid + 1;
      else hi = mid;
    }
    const found: PriceRule[] = [];
    for (let i = lo; i < list.length && list[i]!.threshold.lte(high); i++) found.push(list[i]!);
    return found.sort((a, b) => a.rule.id - b.rule.id);
  }
}
