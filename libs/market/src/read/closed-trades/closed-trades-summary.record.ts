import Big from 'big.js';
import { dec, quotient, str } from '../../closed-trades/closed-trade.decimal.js';
import type { ClosedTradesSummaryRecord } from '../../closed-trades/closed-trades.summary.js';
import { jsonNumber, jsonNumberOrNull } from '../json-number.js';
import type { SummaryAggregate } from './closed-trades-summary.queries.js';

/**
 * The design's closed-trades summary record as the route gives it: exactly these fields (the record of
 * summarizeClosedTrades without its extra netPnlUsd), money as JSON numbers, ratios null where there is
 * nothing to divide by (never Infinity or NaN).
 */
export type ClosedTradesSummaryJson = {
  [K in Exclude<keyof ClosedTradesSummaryRecord, 'netPnlUsd'>]: ClosedTradesSummaryRecord[K] extends string
    ? number
    : ClosedTradesSummaryRecord[K] extends string | null
      ? number | null
      : ClosedTradesSummaryRecord[K];
};

/**
 * summarizeClosedTrades' record (same rules, same rounding: quotients half-even at 18 decimals, durations
 * rounded half up to the ms) from the SQL sums of a group, so the trades never leave Postgres.
 */
export function summaryRecord(a: SummaryAggregate): Omit<ClosedTradesSummaryRecord, 'netPnlUsd'> {
  const count = a.tradeCount;
  const profit = dec(a.grossProfitUsd);
  const loss = dec(a.grossLossUsd);
  const net = dec(a.realizedPnlUsd).minus(a.feesUsd).plus(a.fundingUsd);
  const median = a.lowerMiddleMs === null || a.upperMiddleMs === null ? null : halfUp(dec(a.lowerMiddleMs).plus(a.upperMiddleMs).div(2));
  return {
    tradeCount: count,
    winCount: a.winCount,
    lossCount: a.lossCount,
    winRate: rate(a.winCount, count),
    longCount: a.longCount,
    shortCount: a.shortCount,
    longWinRate: rate(a.longWinCount, a.longCount),
    shortWinRate: rate(a.shortWinCount, a.shortCount),
    realizedPnlUsd: str(dec(a.realizedPnlUsd)),
    grossProfitUsd: str(profit),
    grossLossUsd: str(loss),
    feesUsd: str(dec(a.feesUsd)),
    fundingUsd: str(dec(a.fundingUsd)),
    volumeUsd: str(dec(a.volumeUsd)),
    avgSizeUsd: quotient(dec(a.entryUsd), dec(count)),
    avgDurationMs: count === 0 ? null : halfUp(dec(a.durationSumMs).div(count)),
    medianDurationMs: median,
    profitFactor: a.lossCount === 0 ? null : ratio(profit, loss.abs()),
    payoffRatio: a.winCount === 0 || a.lossCount === 0 ? null : ratio(profit.div(a.winCount), loss.abs().div(a.lossCount)),
    expectancyUsd: quotient(net, dec(count)),
    largestWinUsd: a.largestWinUsd === null ? null : str(dec(a.largestWinUsd)),
    largestLossUsd: a.largestLossUsd === null ? null : str(dec(a.largestLossUsd)),
  };
}

/** The record with its decimals turned into JSON numbers, at the edge of the response. */
export function summaryRecordJson(r: Omit<ClosedTradesSummaryRecord, 'netPnlUsd'>): ClosedTradesSummaryJson {
  return {
    tradeCount: r.tradeCount,
    winCount: r.winCount,
    lossCount: r.lossCount,
    winRate: r.winRate,
    longCount: r.longCount,
    shortCount: r.shortCount,
    longWinRate: r.longWinRate,
    shortWinRate: r.shortWinRate,
    realizedPnlUsd: jsonNumber(r.realizedPnlUsd),
    grossProfitUsd: jsonNumber(r.grossProfitUsd),
    grossLossUsd: jsonNumber(r.grossLossUsd),
    feesUsd: jsonNumber(r.feesUsd),
    fundingUsd: jsonNumber(r.fundingUsd),
    volumeUsd: jsonNumber(r.volumeUsd),
    avgSizeUsd: jsonNumberOrNull(r.avgSizeUsd),
    avgDurationMs: r.avgDurationMs,
    medianDurationMs: r.medianDurationMs,
    profitFactor: r.profitFactor,
    payoffRatio: r.payoffRatio,
    expectancyUsd: jsonNumberOrNull(r.expectancyUsd),
    largestWinUsd: jsonNumberOrNull(r.largestWinUsd),
    largestLossUsd: jsonNumberOrNull(r.largestLossUsd),
  };
}

/** A share of a whole, null for an empty whole (the count ratio, as summarizeClosedTrades gives it). */
function rate(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}

function ratio(numerator: Big, denominator: Big): number | null {
  const value = quotient(numerator, denominator);
  return value === null ? null : Number(value);
}

/** Durations are whole ms, never negative: Math.round's half up, done exactly. */
function halfUp(value: Big): number {
  return Number(value.round(0, Big.roundHalfUp).toFixed());
}
