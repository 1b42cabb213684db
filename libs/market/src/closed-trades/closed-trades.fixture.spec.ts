import { describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { parseUserFills, type InfoFill } from '#exchange';
import { fixtureJson } from '#testing';
import { buildClosedTrades } from './closed-trade.builder.js';
import { summarizeClosedTrades } from './closed-trades.summary.js';

function fixtureFills(): InfoFill[] {
  const parsed = parseUserFills(fixtureJson('info_userFills.json'), { file: 'info_userFills.json' });
  if (!parsed.ok) throw new Error(parsed.error.message);
  // Newest first in the file, but fills of one millisecond are in execution order: a stable sort keeps it.
  return [...parsed.value].sort((a, b) => a.time - b.time);
}

/**
 * Reference figures, by a different route from the builder's: the position path of each coin as segments
 * [from, to]. A fill goes from its startPosition to startPosition ± sz, except the second leg of a
 * self-trade (same time, hash, px and sz as the previous fill, other side, same startPosition), which
 * undoes the first: it goes from where the first leg ended back to their common startPosition. (HL's
 * own `dir` is no guide there: OP at 1683245727998 has a self-trade leg labelled "Long > Short" although
 * the position never left +12.8.) A trade closes on every segment that leaves a non-zero position for
 * zero or the other side, and on every jump between segments away from a non-zero position (a gap).
 * The fills of a coin up to its last close belong to closed trades (a flip's closedPnl is all closing).
 */
function reference(fills: InfoFill[]): { closes: number; gaps: number; pnl: string; fees: string } {
  let closes = 0;
  let gaps = 0;
  let pnl = new Big(0);
  let fees = new Big(0);
  for (const coin of new Set(fills.map((f) => f.coin))) {
    const ofCoin = fills.filter((f) => f.coin === coin);
    let last = -1;
    let previousTo: Big | null = null;
    ofCoin.forEach((f, i) => {
      const p = ofCoin[i - 1];
      const selfLeg =
        p !== undefined &&
        p.time === f.time &&
        p.hash === f.hash &&
        p.px === f.px &&
        p.sz === f.sz &&
        p.side !== f.side &&
        p.startPosition === f.startPosition;
      const signed = f.side === 'B' ? new Big(f.sz) : new Big(f.sz).neg();
      const from = selfLeg ? new Big(f.startPosition).minus(signed) : new Big(f.startPosition);
      const to = from.plus(signed);
      if (previousTo !== null && !previousTo.eq(0) && !previousTo.eq(from)) {
        gaps += 1;
        last = i - 1;
      }
      if (!from.eq(0) && (to.eq(0) || to.gt(0) !== from.gt(0))) {
        closes += 1;
        last = i;
      }
      previousTo = to;
    });
    for (const f of ofCoin.slice(0, last + 1)) {
      pnl = pnl.plus(f.closedPnl);
      fees = fees.plus(f.fee); // every fee in this file is 0.0, so no flip share to work out
    }
  }
  return { closes, gaps, pnl: pnl.toFixed(), fees: fees.toFixed() };
}

describe('closed trades of info_userFills.json (500 fills, one wallet, ~5.5 minutes)', () => {
  const fills = fixtureFills();
  const trades = buildClosedTrades('0xWALLET', fills);

  it('matches the reference count, realized PnL and fees', () => {
    const expected = reference(fills);
    // One gap: the oldest SUI fill (time 1683245555699) is one leg of a self-trade whose other leg fell
    // outside the 500-fill window, so the next SUI fill starts from -1839.2 instead of -1734.8: the
    // carried-in short ends there as partial and a new partial one starts.
    expect(expected.gaps).toBe(1);
    expect(expected.closes).toBe(37);
    expect(trades).toHaveLength(expected.closes + expected.gaps);
    expect(trades).toHaveLength(38);
    expect(trades.filter((t) => t.side === 'long' && t.duration === 0 && t.coin === 'LTC')).toHaveLength(1); // see README: self-trade across zero
    expect(trades.filter((t) => t.partial)).toHaveLength(16); // one per coin carried in, plus the gap
    const pnl = trades.reduce((sum, t) => sum.plus(t.realizedPnlUsd), new Big(0)).toFixed();
    const fees = trades.reduce((sum, t) => sum.plus(t.feeUsd), new Big(0)).toFixed();
    expect(pnl).toBe(expected.pnl);
    expect(fees).toBe(expected.fees);
    expect(fees).toBe('0');
    const summary = summarizeClosedTrades(trades).summary;
    expect(summary.realizedPnlUsd).toBe(expected.pnl);
    expect(summary.tradeCount).toBe(38);
  });

  it('is the measured total realized PnL', () => {
    expect(trades.reduce((sum, t) => sum.plus(t.realizedPnlUsd), new Big(0)).toFixed()).toBe('-152.586132');
  });

  it('splits the SUI flip of 1683245645188 and keeps the 5.9 long it opened', () => {
    // "Short > Long": 97.0 bought @ 1.325 from -91.1: 91.1 closes the short, 5.9 opens a long, which the
    // "Long > Short" fill at 1683245646265 (67.9 sold @ 1.3246 from +5.9) closes: 5.9 * (1.3246 - 1.325)
    // = -0.00236, exactly that fill's closedPnl; 5.9 * 1.325 = 7.8175; 1077 ms; the two flip fills only.
    const long = trades.find((t) => t.coin === 'SUI' && t.openTime === 1683245645188);
    expect(long).toMatchObject({
      side: 'long',
      partial: false,
      totalSize: '5.9',
      totalUsd: '7.8175',
      avgEntry: '1.325',
      avgExit: '1.3246',
      exitSize: '5.9',
      realizedPnlUsd: '-0.00236',
      closeTime: 1683245646265,
      duration: 1077,
      countFills: 2,
      fee: '0',
    });
    // The short it closed ends with exactly the 91.1 of the flip fill as its last exit.
    const short = trades.find((t) => t.coin === 'SUI' && t.closeTime === 1683245645188);
    expect(short).toMatchObject({ side: 'short', partial: true, carriedSize: '1839.2' });
  });

  it('builds the DOGE long opened by a flip and closed by two fills of one order', () => {
    // Opened by the "Short > Long" at 1683245808535 (1827 bought @ 0.078355 from -857: 970 open), added
    // 48372 @ 0.078325, closed 45986 @ 0.078255 and 3356 @ 0.078216 at 1683245883209.
    // Entry 970 * 0.078355 + 48372 * 0.078325 = 76.00435 + 3788.7369 = 3864.74125 for 49342;
    // exit 45986 * 0.078255 + 3356 * 0.078216 = 3598.63443 + 262.492896 = 3861.127326;
    // realized = closedPnl of the two closing fills, -3.21902 - 0.2517 = -3.47072 (the flip's -0.006856
    // went to the short it closed). The averages do not terminate: 18 decimals, half-even.
    const long = trades.find((t) => t.coin === 'DOGE' && t.side === 'long');
    expect(long).toMatchObject({
      partial: false,
      openTime: 1683245808535,
      closeTime: 1683245883209,
      duration: 74674,
      totalSize: '49342',
      totalUsd: '3864.74125',
      avgEntry: '0.078325589761258157',
      exitUsd: '3861.127326',
      avgExit: '0.078252347411941145',
      realizedPnlUsd: '-3.47072',
      countFills: 4,
    });
    expect(new Big(long!.totalUsd).div(long!.totalSize).toFixed(18)).toBe(long!.avgEntry);
  });

  it('builds the ETH short carried in from before the window as partial', () => {
    // The first ETH fill starts at -12.0879 and the 11 ETH fills only buy it back to 0 (the last at
    // 1683245874661 from -0.9962): nothing was opened in view, so no entry price and totalSize 0.
    const eth = trades.filter((t) => t.coin === 'ETH');
    expect(eth).toHaveLength(1);
    expect(eth[0]).toMatchObject({
      side: 'short',
      partial: true,
      carriedSize: '12.0879',
      totalSize: '0',
      avgEntry: null,
      exitSize: '12.0879',
      countFills: 11,
      openTime: 1683245563576,
      closeTime: 1683245874661,
      realizedPnlUsd: fills
        .filter((f) => f.coin === 'ETH')
        .reduce((s, f) => s.plus(f.closedPnl), new Big(0))
        .toFixed(),
    });
    expect(eth[0]!.realizedPnlUsd).toBe('-84.553455');
  });

  it('gives every trade a distinct hash and id', () => {
    expect(new Set(trades.map((t) => t.hash)).size).toBe(trades.length);
    expect(new Set(trades.map((t) => t.id)).size).toBe(trades.length);
  });
});
