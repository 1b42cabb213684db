import { isSpotCoin, type InfoFill } from '#exchange';
import { tradeHash, tradeId, tradeIdentity, type TradeStart } from './closed-trade.identity.js';
import type { ClosedTrade, FundingPayment, LastFillRef, OpenTradeState, TradeSide } from './closed-trade.types.js';
import { ScaledDecimal } from './scaled-decimal.js';

// Exact like closed-trade.decimal.ts's big.js `Dec`, with the same strings, at a fraction of big.js's cost per fill.
const ZERO = ScaledDecimal.ZERO;
const dec = (value: string | number): ScaledDecimal => ScaledDecimal.from(value);
const str = (value: ScaledDecimal): string => value.toFixed();
const quotient = (numerator: ScaledDecimal, denominator: ScaledDecimal): string | null =>
  denominator.eq(0) ? null : numerator.div(denominator).toFixed();

/** What the builder reads of a fill; hl-node `Fill`s and info `InfoFill`s both fit. */
export type TradeFill = Pick<
  InfoFill,
  'coin' | 'px' | 'sz' | 'side' | 'time' | 'startPosition' | 'closedPnl' | 'fee' | 'tid' | 'hash' | 'oid'
>;

interface Accumulator {
  address: string;
  coin: string;
  identity: string;
  side: TradeSide;
  openTime: number;
  partial: boolean;
  carriedSize: ScaledDecimal;
  openedSize: ScaledDecimal;
  entryUsd: ScaledDecimal;
  exitSize: ScaledDecimal;
  exitUsd: ScaledDecimal;
  closedPnl: ScaledDecimal;
  fee: ScaledDecimal;
  funding: ScaledDecimal;
  countFills: number;
  lastTime: number;
}

interface KeyState {
  position: ScaledDecimal;
  trade: Accumulator | null;
  lastFill: LastFillRef | null;
}

/**
 * Builds closed trades incrementally from fills, per (address, coin), fed in (time, tid) order.
 * Pure and synchronous; the rules are in this folder's README.md.
 */
export class ClosedTradeBuilder {
  private readonly keys = new Map<string, KeyState>();

  constructor(resume: readonly OpenTradeState[] = []) {
    for (const state of resume) {
      this.keys.set(keyOf(state.address, state.coin), {
        position: dec(state.position),
        lastFill: state.lastFill,
        trade: {
          address: state.address.toLowerCase(),
          coin: state.coin,
          identity: state.identity,
          side: state.side,
          openTime: state.openTime,
          partial: state.partial,
          carriedSize: dec(state.carriedSize),
          openedSize: dec(state.openedSize),
          entryUsd: dec(state.entryUsd),
          exitSize: dec(state.exitSize),
          exitUsd: dec(state.exitUsd),
          closedPnl: dec(state.closedPnl),
          fee: dec(state.fee),
          funding: dec(state.funding),
          countFills: state.countFills,
          lastTime: state.lastTime,
        },
      });
    }
  }

  /** Feeds one fill; returns the trades it closed (none, one, or two when a gap and a close coincide). */
  add(address: string, fill: TradeFill): ClosedTrade[] {
    if (isSpotCoin(fill.coin)) return [];
    const owner = address.toLowerCase();
    const key = keyOf(owner, fill.coin);
    const state = this.keys.get(key) ?? { position: ZERO, trade: null, lastFill: null };
    this.keys.set(key, state);
    assertOrder(state.lastFill, fill, key);

    const closed: ClosedTrade[] = [];
    const start = dec(fill.startPosition);
    // The other leg of a self-trade reports the same startPosition as the first leg: it applies to the
    // running position, otherwise every self-trade would look like a gap.
    const chained = state.position.eq(start) || isSelfTradeLeg(state.lastFill, fill);
    if (!chained) {
      if (state.trade) closed.push(finish(state.trade, true));
      state.trade = start.eq(0) ? null : carriedTrade(owner, fill, start);
      state.position = start;
    }

    const size = dec(fill.sz);
    const delta = fill.side === 'B' ? size : size.neg();
    const before = state.position;
    const after = before.plus(delta);
    const fee = dec(fill.fee);
    const pnl = dec(fill.closedPnl);

    if (delta.eq(0)) {
      if (state.trade) touch(state.trade, fill, ZERO, ZERO, fee, pnl);
    } else if (before.eq(0)) {
      state.trade = openedTrade(owner, fill, delta);
      touch(state.trade, fill, size, ZERO, fee, pnl);
    } else if (before.gt(0) === delta.gt(0)) {
      touch(state.trade!, fill, size, ZERO, fee, pnl);
    } else if (size.lte(before.abs())) {
      touch(state.trade!, fill, ZERO, size, fee, pnl);
      if (after.eq(0)) {
        closed.push(finish(state.trade!, state.trade!.partial));
        state.trade = null;
      }
    } else {
      // A flip: the part up to zero closes the trade, the rest opens the next. The closing part carries all
      // of closedPnl (an opening fill realises nothing) and its share of the fee; the opening part takes the
      // remainder, so the two fee parts add up to the fill's fee exactly.
      const closing = before.abs();
      const closingFee = fee.times(closing).div(size);
      touch(state.trade!, fill, ZERO, closing, closingFee, pnl);
      closed.push(finish(state.trade!, state.trade!.partial));
      state.trade = openedTrade(owner, fill, after);
      touch(state.trade, fill, size.minus(closing), ZERO, fee.minus(closingFee), ZERO);
    }
    state.position = after;
    state.lastFill = lastFillRef(fill);
    return closed;
  }

  /**
   * Adds a funding payment to the trade open on its coin at that moment; false when none is open (the
   * payment then belongs to no closed trade). Feed it before the fills of the same millisecond: funding is
   * paid on the position held at that instant.
   */
  addFunding(address: string, payment: FundingPayment): boolean {
    const trade = this.keys.get(keyOf(address.toLowerCase(), payment.coin))?.trade;
    if (!trade || payment.time < trade.openTime) return false;
    trade.funding = trade.funding.plus(payment.usdc);
    return true;
  }

  /** Trades still open, as resumable states. */
  openTrades(): OpenTradeState[] {
    const open: OpenTradeState[] = [];
    for (const { position, trade, lastFill } of this.keys.values()) {
      if (!trade || !lastFill) continue;
      open.push({
        address: trade.address,
        coin: trade.coin,
        position: str(position),
        lastFill,
        identity: trade.identity,
        side: trade.side,
        openTime: trade.openTime,
        partial: trade.partial,
        carriedSize: str(trade.carriedSize),
        openedSize: str(trade.openedSize),
        entryUsd: str(trade.entryUsd),
        exitSize: str(trade.exitSize),
        exitUsd: str(trade.exitUsd),
        closedPnl: str(trade.closedPnl),
        fee: str(trade.fee),
        funding: str(trade.funding),
        countFills: trade.countFills,
        lastTime: trade.lastTime,
      });
    }
    return open;
  }
}

/**
 * All closed trades of one wallet from a batch of its fills (any order: sorted here by time, then tid when
 * both fills have one, otherwise kept in input order) and optional funding payments.
 */
export function buildClosedTrades(address: string, fills: readonly TradeFill[], funding: readonly FundingPayment[] = []): ClosedTrade[] {
  const sortedFills = [...fills].sort((a, b) => a.time - b.time || (a.tid !== null && b.tid !== null ? a.tid - b.tid : 0));
  const sortedFunding = [...funding].sort((a, b) => a.time - b.time);
  const builder = new ClosedTradeBuilder();
  const trades: ClosedTrade[] = [];
  let next = 0;
  for (const fill of sortedFills) {
    while (next < sortedFunding.length && sortedFunding[next]!.time <= fill.time) {
      builder.addFunding(address, sortedFunding[next++]!);
    }
    trades.push(...builder.add(address, fill));
  }
  return trades;
}

function keyOf(address: string, coin: string): string {
  return `${address.toLowerCase()}|${coin}`;
}

function assertOrder(last: LastFillRef | null, fill: TradeFill, key: string): void {
  if (!last) return;
  const earlier = fill.time < last.time || (fill.time === last.time && fill.tid !== null && last.tid !== null && fill.tid < last.tid);
  if (earlier) {
    throw new RangeError(`fill ${fill.tid ?? fill.hash} at ${fill.time} arrived after ${last.tid ?? last.hash} at ${last.time} for ${key}`);
  }
}

function isSelfTradeLeg(last: LastFillRef | null, fill: TradeFill): boolean {
  return (
    last !== null &&
    last.time === fill.time &&
    last.hash === fill.hash &&
    (last.tid === null || fill.tid === null || last.tid === fill.tid) &&
    last.side !== fill.side &&
    dec(last.sz).eq(fill.sz) &&
    dec(last.px).eq(fill.px) &&
    dec(last.startPosition).eq(fill.startPosition)
  );
}

function lastFillRef(fill: TradeFill): LastFillRef {
  const { time, tid, hash, side, px, sz, startPosition } = fill;
  return { time, tid, hash, side, px, sz, startPosition };
}

function newTrade(address: string, fill: TradeFill, signedPosition: ScaledDecimal, start: TradeStart): Accumulator {
  return {
    address,
    coin: fill.coin,
    identity: tradeIdentity(address, fill.coin, fill, start),
    side: signedPosition.gt(0) ? 'long' : 'short',
    openTime: fill.time,
    partial: start === 'carried',
    carriedSize: start === 'carried' ? signedPosition.abs() : ZERO,
    openedSize: ZERO,
    entryUsd: ZERO,
    exitSize: ZERO,
    exitUsd: ZERO,
    closedPnl: ZERO,
    fee: ZERO,
    funding: ZERO,
    countFills: 0,
    lastTime: fill.time,
  };
}

function openedTrade(address: string, fill: TradeFill, signedPosition: ScaledDecimal): Accumulator {
  return newTrade(address, fill, signedPosition, 'opened');
}

function carriedTrade(address: string, fill: TradeFill, startPosition: ScaledDecimal): Accumulator {
  return newTrade(address, fill, startPosition, 'carried');
}

function touch(
  trade: Accumulator,
  fill: TradeFill,
  opened: ScaledDecimal,
  reduced: ScaledDecimal,
  fee: ScaledDecimal,
  pnl: ScaledDecimal,
): void {
  const px = dec(fill.px);
  trade.openedSize = trade.openedSize.plus(opened);
  trade.entryUsd = trade.entryUsd.plus(px.times(opened));
  trade.exitSize = trade.exitSize.plus(reduced);
  trade.exitUsd = trade.exitUsd.plus(px.times(reduced));
  trade.fee = trade.fee.plus(fee);
  trade.closedPnl = trade.closedPnl.plus(pnl);
  trade.countFills += 1;
  trade.lastTime = fill.time;
}

function finish(trade: Accumulator, partial: boolean): ClosedTrade {
  const hash = tradeHash(trade.identity);
  const fee = str(trade.fee);
  return {
    address: trade.address,
    hash,
    id: tradeId(trade.openTime, hash),
    side: trade.side,
    coin: trade.coin,
    avgEntry: quotient(trade.entryUsd, trade.openedSize),
    avgExit: quotient(trade.exitUsd, trade.exitSize),
    duration: trade.lastTime - trade.openTime,
    openTime: trade.openTime,
    closeTime: trade.lastTime,
    partial,
    totalSize: str(trade.openedSize),
    totalUsd: str(trade.entryUsd),
    realizedPnlUsd: str(trade.closedPnl),
    countFills: trade.countFills,
    fee,
    feeUsd: fee,
    fundingUsd: str(trade.funding),
    carriedSize: str(trade.carriedSize),
    exitSize: str(trade.exitSize),
    exitUsd: str(trade.exitUsd),
  };
}
