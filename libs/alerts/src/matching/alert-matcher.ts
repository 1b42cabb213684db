import type { EventType, MatchedDelivery } from '../alert.types.js';
import { matchLedgerUpdates, matchPriceCrossings, matchTwapLifecycle } from './event-matchers.js';
import { matchLargeMarketOrders, matchLiquidations, matchPositionActivity, matchTwapExecution } from './fill-matchers.js';
import type { FillsBlockOccurrence, MatchInput } from './match-input.js';
import type { RuleIndex } from './rule-index.js';

/** What a type's occurrences are matched in: each block of fills, the whole batch, or each state update. */
type TypeMatcher =
  | { per: 'fills block'; match: (index: RuleIndex, block: FillsBlockOccurrence, out: MatchedDelivery[]) => void }
  | { per: 'batch'; match: (index: RuleIndex, input: MatchInput, out: MatchedDelivery[]) => void }
  | { per: 'state update' };

/**
 * Every event type's matcher, which also builds its payload: a new type does not compile until it has
 * one. A batch is matched in this order (each block's fill rules, then the ticks, TWAP statuses and
 * ledger), which is the order of its deliveries.
 */
const MATCHERS: Record<EventType, TypeMatcher> = {
  position_activity: { per: 'fills block', match: matchPositionActivity },
  twap_execution: { per: 'fills block', match: matchTwapExecution },
  liquidation: { per: 'fills block', match: matchLiquidations },
  large_market_order: { per: 'fills block', match: matchLargeMarketOrders },
  price_crossing: { per: 'batch', match: (index, input, out) => matchPriceCrossings(index, input.ticks, out) },
  twap_lifecycle: { per: 'batch', match: (index, input, out) => matchTwapLifecycle(index, input.twapStatuses, out) },
  ledger_update: { per: 'batch', match: (index, input, out) => matchLedgerUpdates(index, input.ledger, out) },
  // matchStateUpdate, called by StateUpdatedOutboxStep inside the state update it announces.
  state_updated: { per: 'state update' },
};

const BLOCK_MATCHERS = Object.values(MATCHERS).flatMap((m) => (m.per === 'fills block' ? [m.match] : []));
const BATCH_MATCHERS = Object.values(MATCHERS).flatMap((m) => (m.per === 'batch' ? [m.match] : []));

/** Every delivery a batch's occurrences make under the active rules, in a deterministic order. */
export function matchBatch(index: RuleIndex, input: MatchInput): MatchedDelivery[] {
  const out: MatchedDelivery[] = [];
  if (index.size === 0) return out;
  for (const block of input.fillBlocks) for (const match of BLOCK_MATCHERS) match(index, block, out);
  for (const match of BATCH_MATCHERS) match(index, input, out);
  return out;
}
