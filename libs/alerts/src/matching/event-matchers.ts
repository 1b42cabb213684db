import type { AmountFilter, MatchedDelivery } from '../alert.types.js';
import { Dec } from './decimal.js';
import { deliveryOf as delivery } from './delivery-id.js';
import { isSpotCoin, type LedgerOccurrence, type PriceTick, type TwapStatusOccurrence } from './match-input.js';
import type { RuleIndex } from './rule-index.js';

/** `twap_lifecycle`: one delivery per status change of a non-spot TWAP; odd source statuses become `error`. */
export function matchTwapLifecycle(index: RuleIndex, occurrences: readonly TwapStatusOccurrence[], out: MatchedDelivery[]): void {
  if (!index.has('twap_lifecycle')) return;
  for (const { event } of occurrences) {
    const s = event.state;
    if (isSpotCoin(s.coin)) continue;
    const address = s.user.toLowerCase();
    const status = event.status === 'unknown' ? 'error' : event.status;
    const description =
      event.status === 'activated' || event.status === 'finished' || event.status === 'terminated' ? null : event.description;
    for (const rule of index.concerning('twap_lifecycle', address)) {
      if (event.timeMs < rule.createdAtMs || (rule.filters.coin && !rule.filters.coin.includes(s.coin))) continue;
      out.push(
        delivery(rule, `twap_lifecycle|${event.twapId}|${status}|${event.timeMs}`, event.timeMs, {
          address,
          coin: s.coin,
          twapId: event.twapId,
          status,
          description,
          side: s.side,
          size: s.sz,
          executedSize: s.executedSz,
          executedNotional: s.executedNtl,
          minutes: s.minutes,
          reduceOnly: s.reduceOnly,
          randomize: s.randomize,
          timestamp: event.timeMs,
        }),
      );
    }
  }
}

function amountPasses(amount: string, filter: AmountFilter | undefined): boolean {
  if (!filter) return true;
  const a = new Dec(amount);
  return (
    (filter.eq === undefined || a.eq(filter.eq)) &&
    (filter.gte === undefined || a.gte(filter.gte)) &&
    (filter.gt === undefined || a.gt(filter.gt)) &&
    (filter.lte === undefined || a.lte(filter.lte)) &&
    (filter.lt === undefined || a.lt(filter.lt))
  );
}

/** `ledger_update`: a deposit or withdrawal, one delivery per affected wallet the rule is concerned with. */
export function matchLedgerUpdates(index: RuleIndex, occurrences: readonly LedgerOccurrence[], out: MatchedDelivery[]): void {
  if (!index.has('ledger_update')) return;
  for (const e of occurrences) {
    const time = new Date(e.timeMs).toISOString();
    for (const address of new Set(e.users.map((u) => u.toLowerCase()))) {
      for (const rule of index.concerning('ledger_update', address)) {
        const f = rule.filters;
        if (e.timeMs < rule.createdAtMs || (f.types && !f.types.includes(e.type)) || !amountPasses(e.amount, f.amount)) continue;
        out.push(
          delivery(rule, `ledger_update|${e.name}|${address}`, e.timeMs, {
            address,
            type: e.type,
            amount: e.amount,
            time,
            hash: e.name,
            users: e.users,
            delta: { type: e.type, usdc: e.amount },
          }),
        );
      }
    }
  }
}

/**
 * `price_crossing`: `above` when the previous price was at or below the threshold and the new one is
 * strictly above, `below` the mirror; touching fires nothing. Both prices must be from at or after the
 * rule's creation: the first price a rule sees is its baseline.
 */
export function matchPriceCrossings(index: RuleIndex, ticks: readonly PriceTick[], out: MatchedDelivery[]): void {
  if (!index.has('price_crossing')) return;
  for (const tick of ticks) {
    if (tick.previous === null) continue;
    if (tick.previous.px === tick.px) continue;
    const previous = new Dec(tick.previous.px);
    const current = new Dec(tick.px);
    // Only a threshold between the two prices (either end included) can have been crossed.
    const rising = current.gt(previous);
    for (const { rule, threshold: level } of index.priceRulesBetween(
      tick.market,
      rising ? previous : current,
      rising ? current : previous,
    )) {
      if (tick.previous.timeMs < rule.createdAtMs || tick.timeMs < rule.createdAtMs) continue;
      const threshold = rule.filters.threshold!;
      const wanted = rule.filters.direction ?? 'both';
      const crossed = previous.lte(level) && current.gt(level) ? 'above' : previous.gte(level) && current.lt(level) ? 'below' : null;
      if (crossed === null || (wanted !== 'both' && wanted !== crossed)) continue;
      out.push(
        delivery(rule, `price_crossing|${tick.market}|${tick.blockNumber}|${tick.timeMs}`, tick.timeMs, {
          market: tick.market,
          threshold,
          direction: crossed,
          previousPrice: tick.previous.px,
          triggerPrice: tick.px,
          eventTime: tick.timeMs,
        }),
      );
    }
  }
}

/** `state_updated`: once per processed state update, for each rule created at or before its time. */
export function matchStateUpdate(index: RuleIndex, update: { height: number; stateTimeMs: number }): MatchedDelivery[] {
  return index
    .global('state_updated')
    .filter((rule) => update.stateTimeMs >= rule.createdAtMs)
    .map((rule) =>
      delivery(rule, `state_updated|${update.height}`, update.stateTimeMs, { height: update.height, stateTime: update.stateTimeMs }),
    );
}
