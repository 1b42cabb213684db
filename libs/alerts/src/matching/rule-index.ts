import type { AlertRule, EventType } from '../alert.types.js';

interface TypeRules {
  byAddress: Map<string, AlertRule[]>;
  /** Rules without addresses: exchange-wide. */
  global: AlertRule[];
}

const NONE: readonly AlertRule[] = [];

/**
 * The active rules, indexed so that matching costs a map lookup per occurrence: by event type, then by
 * tracked address (plus the rules without addresses), and price rules by market.
 */
export class RuleIndex {
  readonly size: number;
  private readonly byType = new Map<EventType, TypeRules>();
  private readonly priceByMarket = new Map<string, AlertRule[]>();

  constructor(rules: readonly AlertRule[]) {
    this.size = rules.length;
    for (const rule of [...rules].sort((a, b) => a.id - b.id)) {
      if (rule.eventType === 'price_crossing') {
        const market = rule.filters.market!;
        const list = this.priceByMarket.get(market);
        if (list) list.push(rule);
        else this.priceByMarket.set(market, [rule]);
        continue;
      }
      let typed = this.byType.get(rule.eventType);
      if (!typed) this.byType.set(rule.eventType, (typed = { byAddress: new Map(), global: [] }));
      if (rule.addresses.length === 0) typed.global.push(rule);
      for (const address of rule.addresses) {
        const list = typed.byAddress.get(address);
        if (list) list.push(rule);
        else typed.byAddress.set(address, [rule]);
      }
    }
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

  priceRules(market: string): readonly AlertRule[] {
    return this.priceByMarket.get(market) ?? NONE;
  }
}
