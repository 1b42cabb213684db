import { describe, expect, it } from '@jest/globals';
import type { ClosedTrade } from './closed-trade.types.js';
import { summarizeClosedTrades } from './closed-trades.summary.js';

function trade(
  coin: string,
  side: 'long' | 'short',
  pnl: string,
  fee: string,
  funding: string,
  entryUsd: string,
  exitUsd: string,
  duration: number,
): ClosedTrade {
  return {
    address: '0xw',
    hash: `${coin}${duration}`,
    id: `${coin}${duration}`,
    side,
    coin,
    avgEntry: '1',
    avgExit: '1',
    duration,
    openTime: 0,
    closeTime: duration,
    partial: false,
    totalSize: '1',
    totalUsd: entryUsd,
    realizedPnlUsd: pnl,
    countFills: 2,
    fee,
    feeUsd: fee,
    fundingUsd: funding,
    carriedSize: '0',
    exitSize: '1',
    exitUsd,
  };
}

describe('summarizeClosedTrades', () => {
  // Net results (realized - fee + funding): A 10 - 1 = 9 (win), B -4 - 1 - 1 = -6 (loss),
  // C 0.5 - 0.5 = 0 (neither), D 3 (win).
  const trades = [
    trade('BTC', 'long', '10', '1', '0', '100', '110', 1000),
    trade('BTC', 'short', '-4', '1', '-1', '50', '54', 3000),
    trade('ETH', 'long', '0.5', '0.5', '0', '20', '20.5', 2000),
    trade('ETH', 'short', '3', '0', '0', '30', '27', 6000),
  ];

  it('summarizes the wallet', () => {
    expect(summarizeClosedTrades(trades).summary).toEqual({
      tradeCount: 4,
      winCount: 2,
      lossCount: 1,
      winRate: 0.5,
      longCount: 2,
      shortCount: 2,
      longWinRate: 0.5,
      shortWinRate: 0.5,
      realizedPnlUsd: '9.5', // gross: 10 - 4 + 0.5 + 3
      netPnlUsd: '6', // 9.5 - 2.5 fees - 1 funding
      grossProfitUsd: '12',
      grossLossUsd: '-6',
      feesUsd: '2.5',
      fundingUsd: '-1',
      volumeUsd: '411.5', // entries 200 + exits 211.5
      avgSizeUsd: '50',
      avgDurationMs: 3000,
      medianDurationMs: 2500, // (2000 + 3000) / 2
      profitFactor: 2, // 12 / 6
      payoffRatio: 1, // (12 / 2) / (6 / 1)
      expectancyUsd: '1.5', // 6 / 4
      largestWinUsd: '9',
      largestLossUsd: '-6',
    });
  });

  it('breaks down by coin, with null where there is nothing to measure', () => {
    const { byCoin } = summarizeClosedTrades(trades);
    expect(byCoin.map((c) => c.coin)).toEqual(['BTC', 'ETH']);
    expect(byCoin[0]).toMatchObject({ tradeCount: 2, profitFactor: 1.5, payoffRatio: 1.5, medianDurationMs: 2000, netPnlUsd: '3' });
    expect(byCoin[1]).toMatchObject({
      winCount: 1,
      lossCount: 0,
      profitFactor: null,
      payoffRatio: null,
      largestLossUsd: null,
      grossLossUsd: '0',
    });
  });

  it('summarizes no trades', () => {
    expect(summarizeClosedTrades([]).summary).toMatchObject({
      tradeCount: 0,
      winRate: null,
      avgSizeUsd: null,
      avgDurationMs: null,
      medianDurationMs: null,
      expectancyUsd: null,
      profitFactor: null,
      largestWinUsd: null,
      realizedPnlUsd: '0',
    });
    expect(summarizeClosedTrades([]).byCoin).toEqual([]);
  });
});
