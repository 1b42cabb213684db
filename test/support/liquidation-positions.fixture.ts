import Big from 'big.js';
import { DataSource } from 'typeorm';
import { ExchangeFactsWriter, MarketStateWriter } from '#market';
import { address, exchangeState, feed, positionState, startedWriter, walletState } from '#testing';
import { MIN, T, MAIN, ORDINARY, BULK_SEEDS, blocksOf } from './liquidations.fixture.js';

// The liquidation-risk route's open positions, and the whole seed of the liquidations suites.

/** riskValue / totalValue * 100 to 8 decimal places, exactly. */
export function percent(riskValue: string, totalValue: string): number {
  return Number(new Big(riskValue).times(100).div(totalValue).round(8).toFixed());
}

/**
 * Two state updates, by hand. Progress is (entry - mark) / (entry - liquidation price), mark = value / |size|:
 *   W1 Dolphin (2) / Consistent Grinder (10): BTC 2 long at 100, liq 80, value 170 (mark 85: exactly 0.75, at risk);
 *      ETH 1 short at 100, liq 120, value 114.998 (mark 114.998: 0.7499, not); SOL 5 long, no liquidation price, value 500 (not).
 *   W2 Dolphin / Semi-Rekt (13): BTC 0.5 short at 100, liq 110, value 54 (mark 108: 0.8); ETH 3 long at 100, liq 90, value 277.5
 *      (mark 92.5: exactly 0.75); AVAX 10 long at 50, liq 40, value 420 (mark 42: 0.8); HYPE until the first update only.
 *   W3 Dolphin / Humble Earner (11): BTC 1 long at 100, liq 60, value 70.001 (mark 70.001: 0.749975, not); DOGE 1000 long, no liq, 420.
 *   W4 Fish (1) / Humble Earner: BTC 10 long at 100, liq 90, value 910 (mark 91: 0.9).
 *   W5 Dolphin / Humble Earner: no positions.
 *   W6 Dolphin at the first update, Fish at the second / Humble Earner: BTC 1 long at 1000, liq 900, value 910 (mark 910: 0.9).
 *   W7 Dolphin / Money Printer (8): no positions. Leviathan (7) has no wallet at all.
 *   W8 Whale (5) / Smart Money (9): ETH 1 long at 100, liq 50, value 0 (a total of 0).
 */
async function seedPositions(states: MarketStateWriter): Promise<void> {
  const [W1, W2, W3, W4, W5, W6, W7, W8] = [0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8].map(address) as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const position = (coin: string, szi: string, entryPx: string, liquidationPx: string | null, positionValue: string) =>
    positionState(coin, { szi, entryPx, liquidationPx, positionValue });
  const wallets = (final: boolean) => [
    walletState(W1, {
      perpEquity: '20000',
      allTimePnl: '50000',
      positions: [
        position('BTC', '2', '100', '80', '170'),
        position('ETH', '-1', '100', '120', '114.998'),
        position('SOL', '5', '100', null, '500'),
      ],
    }),
    walletState(W2, {
      perpEquity: '30000',
      allTimePnl: '-20000',
      positions: [
        position('BTC', '-0.5', '100', '110', '54'),
        position('ETH', '3', '100', '90', '277.5'),
        position('AVAX', '10', '50', '40', '420'),
        ...(final ? [] : [position('HYPE', '10', '40', '30', '380')]),
      ],
    }),
    walletState(W3, {
      perpEquity: '15000',
      allTimePnl: '5000',
      positions: [position('BTC', '1', '100', '60', '70.001'), position('DOGE', '1000', '0.5', null, '420')],
    }),
    walletState(W4, { perpEquity: '1000', allTimePnl: '0', positions: [position('BTC', '10', '100', '90', '910')] }),
    walletState(W5, { perpEquity: '20000', allTimePnl: '0' }),
    walletState(W6, { perpEquity: final ? '5000' : '20000', allTimePnl: '0', positions: [position('BTC', '1', '1000', '900', '910')] }),
    walletState(W7, { perpEquity: '20000', allTimePnl: '2000000' }),
    walletState(W8, { perpEquity: '600000', allTimePnl: '500000', positions: [position('ETH', '1', '100', '50', '0')] }),
  ];
  await states.apply(exchangeState(1_000, T - 15 * MIN, wallets(false)));
  await states.apply(exchangeState(1_001, T, wallets(true)));
}

/** Both routes' data: the fills as hl-node blocks, then two state updates of open positions. */
export async function seedLiquidations(dataSource: DataSource): Promise<void> {
  const facts = await startedWriter(dataSource, ExchangeFactsWriter);
  await facts.writeBlocks(feed(blocksOf([...MAIN, ...ORDINARY, ...BULK_SEEDS])), 'node');
  await seedPositions(await startedWriter(dataSource, MarketStateWriter));
}
