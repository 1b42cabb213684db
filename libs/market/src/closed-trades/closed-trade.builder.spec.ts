import { describe, expect, it } from '@jest/globals';
import { buildClosedTrades, ClosedTradeBuilder, type TradeFill } from './closed-trade.builder.js';

const WALLET = '0xAbC0000000000000000000000000000000000001';
const wallet = WALLET.toLowerCase();

let nextTid = 1;
function fill(p: {
  time: number;
  side: 'A' | 'B';
  sz: string;
  px: string;
  start: string;
  pnl?: string;
  fee?: string;
  coin?: string;
  tid?: number | null;
  hash?: string;
}): TradeFill {
  return {
    coin: p.coin ?? 'BTC',
    px: p.px,
    sz: p.sz,
    side: p.side,
    time: p.time,
    startPosition: p.start,
    closedPnl: p.pnl ?? '0',
    fee: p.fee ?? '0',
    tid: p.tid === undefined ? nextTid++ : p.tid,
    hash: p.hash ?? `0x${(nextTid * 7919).toString(16).padStart(64, '0')}`,
    oid: 1,
  };
}

describe('ClosedTradeBuilder', () => {
  it('builds a long opened, added to, reduced and closed', () => {
    const builder = new ClosedTradeBuilder();
    // Entries 1 @ 100 and 1 @ 110: avgEntry 105, totalUsd 210. Exits 0.5 @ 120 (+7.5) and 1.5 @ 90 (-22.5):
    // avgExit (60 + 135) / 2 = 97.5, realized -15. Fees 0.05 + 0.055 + 0.03 + 0.0675 = 0.2025.
    expect(builder.add(WALLET, fill({ time: 1000, side: 'B', sz: '1', px: '100', start: '0', fee: '0.05' }))).toEqual([]);
    expect(builder.add(WALLET, fill({ time: 2000, side: 'B', sz: '1', px: '110', start: '1', fee: '0.055' }))).toEqual([]);
    expect(builder.add(WALLET, fill({ time: 3000, side: 'A', sz: '0.5', px: '120', start: '2', pnl: '7.5', fee: '0.03' }))).toEqual([]);
    expect(builder.openTrades()).toHaveLength(1);
    const [trade, ...rest] = builder.add(
      WALLET,
      fill({ time: 4000, side: 'A', sz: '1.5', px: '90', start: '1.5', pnl: '-22.5', fee: '0.0675' }),
    );
    expect(rest).toEqual([]);
    expect(trade).toMatchObject({
      address: wallet,
      side: 'long',
      coin: 'BTC',
      avgEntry: '105',
      avgExit: '97.5',
      openTime: 1000,
      closeTime: 4000,
      duration: 3000,
      partial: false,
      totalSize: '2',
      totalUsd: '210',
      exitSize: '2',
      exitUsd: '195',
      realizedPnlUsd: '-15',
      countFills: 4,
      fee: '0.2025',
      feeUsd: '0.2025',
      fundingUsd: '0',
      carriedSize: '0',
    });
    expect(trade!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(trade!.id).toBe(`1000-${trade!.hash.slice(0, 16)}`);
    expect(builder.openTrades()).toEqual([]);
  });

  it('builds a short', () => {
    // 3 sold @ 50, bought back @ 40: +30 gross, fees 0.1 + 0.08.
    const trades = buildClosedTrades(WALLET, [
      fill({ time: 1000, side: 'A', sz: '3', px: '50', start: '0', fee: '0.1' }),
      fill({ time: 5000, side: 'B', sz: '3', px: '40', start: '-3', pnl: '30', fee: '0.08' }),
    ]);
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({
      side: 'short',
      avgEntry: '50',
      avgExit: '40',
      totalUsd: '150',
      realizedPnlUsd: '30',
      fee: '0.18',
      duration: 4000,
      countFills: 2,
      partial: false,
    });
  });

  it('splits a flip exactly: the closing part takes its fee share and all of closedPnl', () => {
    const builder = new ClosedTradeBuilder();
    builder.add(WALLET, fill({ time: 1000, side: 'B', sz: '2', px: '100', start: '0', fee: '0.02' }));
    // Long > Short: 3 sold @ 110 from +2 -> 2 close the long, 1 opens a short. Fee 0.1 * 2/3 does not
    // terminate: the closing share is rounded half-even at 18 decimals (0.066666666666666667) and the
    // opening part takes the remainder (0.033333333333333333), so the two add up to 0.1 exactly.
    const [long] = builder.add(WALLET, fill({ time: 2000, side: 'A', sz: '3', px: '110', start: '2', pnl: '20', fee: '0.1' }));
    expect(long).toMatchObject({
      side: 'long',
      totalSize: '2',
      exitSize: '2',
      avgEntry: '100',
      avgExit: '110',
      realizedPnlUsd: '20',
      fee: '0.086666666666666667', // 0.02 + 0.066666666666666667
      countFills: 2,
      closeTime: 2000,
    });
    const [short] = builder.add(WALLET, fill({ time: 3000, side: 'B', sz: '1', px: '105', start: '-1', pnl: '5', fee: '0.01' }));
    expect(short).toMatchObject({
      side: 'short',
      openTime: 2000,
      totalSize: '1',
      avgEntry: '110',
      avgExit: '105',
      realizedPnlUsd: '5',
      fee: '0.043333333333333333', // 0.033333333333333333 + 0.01
      countFills: 2, // the flip fill counts in both trades
      partial: false,
    });
    expect(short!.hash).not.toBe(long!.hash);
  });

  it('splits a flip with a terminating share with no rounding at all', () => {
    // 4 bought from -1: 1 closes (fee 0.2 * 1/4 = 0.05), 3 open a long (fee 0.15).
    const builder = new ClosedTradeBuilder();
    builder.add(WALLET, fill({ time: 1, side: 'A', sz: '1', px: '10', start: '0' }));
    const [short] = builder.add(WALLET, fill({ time: 2, side: 'B', sz: '4', px: '9', start: '-1', pnl: '1', fee: '0.2' }));
    expect(short).toMatchObject({ fee: '0.05', realizedPnlUsd: '1' });
    expect(builder.openTrades()[0]).toMatchObject({ side: 'long', position: '3', openedSize: '3', fee: '0.15', entryUsd: '27' });
  });

  it('marks a trade already open before the first fill seen as partial', () => {
    // First fill starts from +2: the entry is unknown, so avgEntry is null and totalSize 0; carriedSize says 2.
    const trades = buildClosedTrades(WALLET, [
      fill({ time: 1000, side: 'A', sz: '1', px: '100', start: '2', pnl: '10' }),
      fill({ time: 2000, side: 'A', sz: '1', px: '101', start: '1', pnl: '11' }),
    ]);
    expect(trades).toEqual([
      expect.objectContaining({
        side: 'long',
        partial: true,
        avgEntry: null,
        avgExit: '100.5',
        totalSize: '0',
        carriedSize: '2',
        exitSize: '2',
        realizedPnlUsd: '21',
        countFills: 2,
        openTime: 1000,
        closeTime: 2000,
      }),
    ]);
  });

  it('ends the running trade at its last fill on a gap in startPosition and starts again from the truth', () => {
    const builder = new ClosedTradeBuilder();
    builder.add(WALLET, fill({ time: 1000, side: 'B', sz: '1', px: '100', start: '0' }));
    builder.add(WALLET, fill({ time: 2000, side: 'B', sz: '1', px: '101', start: '1' }));
    // Running position 2, but this fill says 5: fills are missing. The first trade ends at 2000, partial,
    // with no exit seen; a carried trade of 5 starts here and this fill reduces it to 4.
    const [gapped, ...none] = builder.add(WALLET, fill({ time: 3000, side: 'A', sz: '1', px: '105', start: '5', pnl: '1' }));
    expect(none).toEqual([]);
    expect(gapped).toMatchObject({
      partial: true,
      closeTime: 2000,
      duration: 1000,
      totalSize: '2',
      avgEntry: '100.5',
      avgExit: null,
      exitSize: '0',
      countFills: 2,
    });
    expect(builder.openTrades()).toEqual([expect.objectContaining({ position: '4', partial: true, carriedSize: '5', openTime: 3000 })]);
    // Exits 1 @ 105 and 4 @ 106: avgExit 529 / 5 = 105.8.
    const [carried] = builder.add(WALLET, fill({ time: 4000, side: 'A', sz: '4', px: '106', start: '4', pnl: '2' }));
    expect(carried).toMatchObject({
      partial: true,
      openTime: 3000,
      closeTime: 4000,
      avgExit: '105.8',
      avgEntry: null,
      realizedPnlUsd: '3',
      countFills: 2,
    });
  });

  it('ends the running trade as partial when a fill starts from zero', () => {
    const trades = buildClosedTrades(WALLET, [
      fill({ time: 1000, side: 'A', sz: '1', px: '100', start: '0' }),
      fill({ time: 2000, side: 'B', sz: '1', px: '99', start: '0' }), // the short was closed by a fill not seen
      fill({ time: 3000, side: 'A', sz: '1', px: '98', start: '1', pnl: '-1' }),
    ]);
    expect(trades.map((t) => [t.side, t.partial, t.openTime, t.closeTime])).toEqual([
      ['short', true, 1000, 1000],
      ['long', false, 2000, 3000],
    ]);
  });

  it('applies the second leg of a self-trade (same startPosition as the first leg) to the running position', () => {
    const trades = buildClosedTrades(WALLET, [
      fill({ time: 1000, side: 'B', sz: '1', px: '100', start: '0' }),
      fill({ time: 2000, side: 'B', sz: '0.5', px: '101', start: '1', tid: 7, hash: '0xself' }),
      fill({ time: 2000, side: 'A', sz: '0.5', px: '101', start: '1', tid: 7, hash: '0xself', pnl: '0.25' }),
      fill({ time: 3000, side: 'A', sz: '1', px: '102', start: '1', pnl: '2', tid: 8 }),
    ]);
    expect(trades).toEqual([
      expect.objectContaining({ partial: false, countFills: 4, totalSize: '1.5', exitSize: '1.5', realizedPnlUsd: '2.25' }),
    ]);
  });

  it('keeps coins apart when their fills interleave', () => {
    const trades = buildClosedTrades(WALLET, [
      fill({ time: 1, side: 'B', sz: '1', px: '100', start: '0', coin: 'BTC' }),
      fill({ time: 2, side: 'A', sz: '10', px: '5', start: '0', coin: 'ETH' }),
      fill({ time: 3, side: 'A', sz: '1', px: '120', start: '1', coin: 'BTC', pnl: '20' }),
      fill({ time: 4, side: 'B', sz: '10', px: '4', start: '-10', coin: 'ETH', pnl: '10' }),
      fill({ time: 5, side: 'B', sz: '1', px: '1', start: '0', coin: '@107' }), // spot: skipped
    ]);
    expect(trades.map((t) => [t.coin, t.side, t.avgEntry, t.avgExit, t.realizedPnlUsd, t.openTime, t.closeTime])).toEqual([
      ['BTC', 'long', '100', '120', '20', 1, 3],
      ['ETH', 'short', '5', '4', '10', 2, 4],
    ]);
  });

  it('orders fills of one millisecond by tid, and refuses fills fed out of order', () => {
    const open = fill({ time: 1000, side: 'B', sz: '1', px: '100', start: '0', tid: 10 });
    const close = fill({ time: 1000, side: 'A', sz: '1', px: '101', start: '1', pnl: '1', tid: 11 });
    expect(buildClosedTrades(WALLET, [close, open])).toEqual([
      expect.objectContaining({ avgEntry: '100', avgExit: '101', duration: 0, partial: false }),
    ]);
    const builder = new ClosedTradeBuilder();
    builder.add(WALLET, close);
    expect(() => builder.add(WALLET, open)).toThrow(RangeError);
  });

  it('attributes funding paid while the trade was open, before the fills of the same millisecond', () => {
    const trades = buildClosedTrades(
      WALLET,
      [fill({ time: 1000, side: 'B', sz: '1', px: '100', start: '0' }), fill({ time: 4000, side: 'A', sz: '1', px: '100', start: '1' })],
      [
        { time: 500, coin: 'BTC', usdc: '-9' }, // before the trade
        { time: 1000, coin: 'BTC', usdc: '-9' }, // paid on the flat position just before the opening fill
        { time: 1500, coin: 'BTC', usdc: '-0.5' },
        { time: 2000, coin: 'ETH', usdc: '-9' }, // another coin
        { time: 4000, coin: 'BTC', usdc: '0.2' }, // on the position held just before the closing fill
      ],
    );
    expect(trades[0]!.fundingUsd).toBe('-0.3');
  });

  it('resumes from its open-trade states with the same result', () => {
    const fills = [
      fill({ time: 1, side: 'A', sz: '2', px: '10', start: '0', fee: '0.3' }),
      fill({ time: 2, side: 'A', sz: '1', px: '13', start: '-2', fee: '0.1' }),
      fill({ time: 3, side: 'B', sz: '3', px: '12', start: '-3', pnl: '-1', fee: '0.2' }),
    ];
    const whole = buildClosedTrades(WALLET, fills);
    const first = new ClosedTradeBuilder();
    first.add(WALLET, fills[0]!);
    first.add(WALLET, fills[1]!);
    const resumed = new ClosedTradeBuilder(JSON.parse(JSON.stringify(first.openTrades())));
    expect(resumed.add(WALLET, fills[2]!)).toEqual(whole);
    expect(whole[0]).toMatchObject({ avgEntry: '11', avgExit: '12', fee: '0.6' });
  });
});
