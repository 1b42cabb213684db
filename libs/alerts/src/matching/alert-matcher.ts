import type { MatchedDelivery } from '../alert.types.js';
import { matchLedgerUpdates, matchPriceCrossings, matchTwapLifecycle } from './event-matchers.js';
import { matchLargeMarketOrders, matchLiquidations, matchPositionActivity, matchTwapExecution } from './fill-matchers.js';
import type { MatchInput } from './match-input.js';
import type { RuleIndex } from './rule-index.js';

/** Every delivery a batch's occurrences make under the active rules, in a deterministic order. */
export function matchBatch(index: RuleIndex, input: MatchInput): MatchedDelivery[] {
  const out: MatchedDelivery[] = [];
  if (index.size === 0) return out;
  for (const block of input.fillBlocks) {
    matchPositionActivity(index, block, out);
    matchTwapExecution(index, block, out);
    matchLiquidations(index, block, out);
    matchLargeMarketOrders(index, block, out);
  }
  matchPriceCrossings(index, input.ticks, out);
  matchTwapLifecycle(index, input.twapStatuses, out);
  matchLedgerUpdates(index, input.ledger, out);
  return out;
}
