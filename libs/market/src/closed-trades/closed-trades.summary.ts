import type Big from 'big.js';
import { dec, quotient, str, ZERO } from './closed-trade.decimal.js';
import type { ClosedTrade, TradeOutcome } from './closed-trade.types.js';

/**
 * the design's closed-trades summary record. Money is exact decimal strings, ratios and durations are
 * numbers; a figure with nothing to measure (no trades, no loss, ...) is null rather than 0 or Infinity.
 */
export interface ClosedTradesSummaryRecord {
  tradeCount: number;
  /** Net result (realized - fee + funding) above zero; a trade at exactly zero is neither win nor loss. */
  winCount: number;
  lossCount: number;
  winRate: number | null;
  longCount: number;
  shortCount: number;
  longWinRate: number | null;
  shortWinRate: number | null;
  /** Gross, like each trade's: the sum of closedPnl. */
  realizedPnlUsd: string;
  /** realizedPnlUsd - feesUsd + fundingUsd = grossProfitUsd + grossLossUsd. */
  netPnlUsd: string;
  /** Sum of the net results of the wins. */
  grossProfitUsd: string;
  /** Sum of the net results of the losses: zero or negative. */
  grossLossUsd: string;
  feesUsd: string;
  fundingUsd: string;
  /** Both legs: entry plus exit notional. */
  volumeUsd: string;
  /** Mean entry notional (totalUsd). */
  avgSizeUsd: string | null;
  /** Rounded to the nearest ms. */
  avgDurationMs: number | null;
  /** Middle value; the mean of the two middle values (rounded to the ms) for an even count. */
  medianDurationMs: number | null;
  /** grossProfit / |grossLoss|; null without a loss. */
  profitFactor: number | null;
  /** Mean win / |mean loss|; null without a win or without a loss. */
  payoffRatio: number | null;
  /** Mean net result per trade. */
  expectancyUsd: string | null;
  /** Best net result among wins; null without a win. */
  largestWinUsd: string | null;
  /** Worst net result among losses (negative); null without a loss. */
  largestLossUsd: string | null;
}

export interface ClosedTradesSummary {
  summary: ClosedTradesSummaryRecord;
  /** One record per coin, by coin name. */
  byCoin: Array<{ coin: string } & ClosedTradesSummaryRecord>;
}

/** The net result that decides win or loss: fees and funding are part of what the trade earned. */
export function netResult(trade: Pick<ClosedTrade, 'realizedPnlUsd' | 'feeUsd' | 'fundingUsd'>): Big {
  return dec(trade.realizedPnlUsd).minus(trade.feeUsd).plus(trade.fundingUsd);
}

/** The rule of a win (the read side's OUTCOME_SQL in Postgres): net above 0 wins, below 0 loses, 0 is even. */
export function tradeOutcome(trade: Pick<ClosedTrade, 'realizedPnlUsd' | 'feeUsd' | 'fundingUsd'>): TradeOutcome {
  const net = netResult(trade);
  return net.gt(0) ? 'win' : net.lt(0) ? 'loss' : 'even';
}

export function summarizeClosedTrades(trades: readonly ClosedTrade[]): ClosedTradesSummary {
  const byCoin = new Map<string, ClosedTrade[]>();
  for (const trade of trades) {
    const list = byCoin.get(trade.coin) ?? [];
    list.push(trade);
    byCoin.set(trade.coin, list);
  }
  return {
    summary: summarizeRecord(trades),
    byCoin: [...byCoin.keys()]
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((coin) => ({ coin, ...summarizeRecord(byCoin.get(coin)!) })),
  };
}

function summarizeRecord(trades: readonly ClosedTrade[]): ClosedTradesSummaryRecord {
  let realized = ZERO;
  let fees = ZERO;
  let funding = ZERO;
  let volume = ZERO;
  let entry = ZERO;
  let profit = ZERO;
  let loss = ZERO;
  let largestWin: Big | null = null;
  let largestLoss: Big | null = null;
  let winCount = 0;
  let lossCount = 0;
  const sides = { long: { count: 0, wins: 0 }, short: { count: 0, wins: 0 } };
  for (const trade of trades) {
    const net = netResult(trade);
    const outcome = tradeOutcome(trade);
    realized = realized.plus(trade.realizedPnlUsd);
    fees = fees.plus(trade.feeUsd);
    funding = funding.plus(trade.fundingUsd);
    volume = volume.plus(trade.totalUsd).plus(trade.exitUsd);
    entry = entry.plus(trade.totalUsd);
    sides[trade.side].count += 1;
    if (outcome === 'win') {
      winCount += 1;
      sides[trade.side].wins += 1;
      profit = profit.plus(net);
      if (largestWin === null || net.gt(largestWin)) largestWin = net;
    } else if (outcome === 'loss') {
      lossCount += 1;
      loss = loss.plus(net);
      if (largestLoss === null || net.lt(largestLoss)) largestLoss = net;
    }
  }
  const count = trades.length;
  const net = realized.minus(fees).plus(funding);
  const durations = trades.map((trade) => trade.duration).sort((a, b) => a - b);
  return {
    tradeCount: count,
    winCount,
    lossCount,
    winRate: rate(winCount, count),
    longCount: sides.long.count,
    shortCount: sides.short.count,
    longWinRate: rate(sides.long.wins, sides.long.count),
    shortWinRate: rate(sides.short.wins, sides.short.count),
    realizedPnlUsd: str(realized),
    netPnlUsd: str(net),
    grossProfitUsd: str(profit),
    grossLossUsd: str(loss),
    feesUsd: str(fees),
    fundingUsd: str(funding),
    volumeUsd: str(volume),
    avgSizeUsd: quotient(entry, dec(count)),
    avgDurationMs: count === 0 ? null : Math.round(durations.reduce((sum, d) => sum + d, 0) / count),
    medianDurationMs: median(durations),
    profitFactor: lossCount === 0 ? null : ratio(profit, loss.abs()),
    payoffRatio: winCount === 0 || lossCount === 0 ? null : ratio(profit.div(winCount), loss.abs().div(lossCount)),
    expectancyUsd: quotient(net, dec(count)),
    largestWinUsd: largestWin === null ? null : str(largestWin),
    largestLossUsd: largestLoss === null ? null : str(largestLoss),
  };
}

function rate(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}

function ratio(numerator: Big, denominator: Big): number | null {
  const value = quotient(numerator, denominator);
  return value === null ? null : Number(value);
}

function median(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}
