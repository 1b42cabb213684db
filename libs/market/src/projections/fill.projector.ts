import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ReadVersionsRepository } from '#database';
import { isSpotCoin } from '#exchange';
import { BuilderActivityRepository } from '../builders/builder-activity.repository.js';
import { ExchangeVolumeRepository } from '../builders/exchange-volume.repository.js';
import { ClosedTradeBuilder } from '../closed-trades/closed-trade.builder.js';
import { dec, str } from '../closed-trades/closed-trade.decimal.js';
import type { ClosedTrade, OpenTradeState } from '../closed-trades/closed-trade.types.js';
import { ClosedTradesRepository, type LateFundingPayment } from '../closed-trades/closed-trades.repository.js';
import { OpenTradeStatesRepository, type TradeKey } from '../closed-trades/open-trade-states.repository.js';
import { ProjectionCheckpointRepository, type ProjectionPosition } from './projection-checkpoint.repository.js';
import { ProjectionInputsRepository, type ProjectedFill, type ProjectedFunding } from './projection-inputs.repository.js';
import { RecentFillsBuffer } from './recent-fills.buffer.js';

export const DEFAULT_MAX_FILLS_PER_RUN = 20_000;

export interface FillProjectionResult {
  /** The fills window (afterBlock, toBlock]; equal when there was nothing new. */
  afterBlock: number | null;
  toBlock: number | null;
  fills: number;
  /** Funding payments attributed in order with this window's fills. */
  fundingPayments: number;
  /** Funding payments stored after the fills around them were projected (their stream lagged). */
  lateFundingPayments: number;
  /** Closed trades inserted. */
  closedTrades: number;
  /** Fills older than one already projected for their (address, coin): left out of closed trades. */
  outOfOrderFills: number;
  /** The window's fills were those the facts writer kept in this process (RecentFillsBuffer), not read back. */
  keptFills: boolean;
  /** More stored fills wait beyond the window. */
  more: boolean;
  /** The source stores fills without block numbers (the public-API feed), so none can be projected. */
  blockless: boolean;
}

/**
 * Projects stored fills and funding payments into closed trades, builder activity and exchange volume,
 * one window of blocks per run and one transaction per window, with its checkpoint.
 *
 * Why a block window is exact: the writer stores a batch's facts and its streams' checkpoints in one
 * transaction, refuses blocks at or below a stream's checkpoint and only moves it forward. So once the
 * fills stream's `lastBlock` reads C, every fill of a block <= C is committed and none can be added later:
 * the window (last projected block, C] is complete and projecting it again is never needed. Funding comes
 * from the misc-events stream, which may lag behind: payments are taken up to min(C, its lastBlock), and
 * one that shows up below an already projected fills block is added to the open or closed trade it was
 * paid on. One source per database: block numbers of different feeds are not comparable. The public-API
 * feed stores no block numbers (each address has its own time cursor), so it has no window yet.
 */
@Injectable()
export class FillProjector {
  constructor(
    private readonly dataSource: DataSource,
    private readonly checkpoints: ProjectionCheckpointRepository,
    private readonly inputs: ProjectionInputsRepository,
    private readonly openStates: OpenTradeStatesRepository,
    private readonly closedTrades: ClosedTradesRepository,
    private readonly builderActivity: BuilderActivityRepository,
    private readonly exchangeVolume: ExchangeVolumeRepository,
    private readonly readVersions: ReadVersionsRepository,
    private readonly recentFills: RecentFillsBuffer,
  ) {}

  /** One run over the facts the feed `source` (EXCHANGE_SOURCE's feed checkpoint name) has stored. */
  async project(source: string, maxFills = DEFAULT_MAX_FILLS_PER_RUN): Promise<FillProjectionResult> {
    if (!(maxFills >= 1)) throw new RangeError(`maxFills must be at least 1, got ${maxFills}`);
    return this.dataSource.transaction(async (q) => {
      const name = `fills:${source}`;
      const position = await this.checkpoints.lock(q, name);
      const frontier = await this.inputs.frontier(q, source);

      const after = position.fillsBlock ?? -1;
      const toBlock =
        frontier.fills !== null && frontier.fills > after ? await this.inputs.windowEnd(q, after, frontier.fills, maxFills) : after;
      const fundingAfter = position.fundingBlock ?? -1;
      const fundingTo = frontier.misc === null ? fundingAfter : Math.max(fundingAfter, Math.min(toBlock, frontier.misc));

      let fills: ProjectedFill[] = [];
      let keptFills = false;
      if (toBlock > after) {
        const kept = this.recentFills.take(source, after, toBlock);
        keptFills = kept !== null;
        fills = kept ?? (await this.inputs.fills(q, after, toBlock));
      }
      const funding = fundingTo > fundingAfter ? await this.inputs.funding(q, fundingAfter, fundingTo) : [];
      const late = funding.filter((p) => p.blockNumber <= after);
      const inOrder = funding.filter((p) => p.blockNumber > after);

      const keys = tradeKeys([...fills, ...funding]);
      const states = await this.openStates.load(q, keys);
      const lateOnClosed = applyLateFunding(states, late);
      await this.closedTrades.addLateFunding(q, lateOnClosed);

      const built = buildTrades(new ClosedTradeBuilder(states), fills, inOrder);
      const closedTrades = await this.closedTrades.insert(q, built.closed);
      await this.openStates.replace(q, keys, built.open);

      if (toBlock > after) {
        await this.builderActivity.addFills(q, after, toBlock);
        await this.exchangeVolume.addFills(q, after, toBlock);
      }
      const next: ProjectionPosition = {
        fillsBlock: toBlock > after ? toBlock : position.fillsBlock,
        fundingBlock: fundingTo > fundingAfter ? fundingTo : position.fundingBlock,
        lastFillTime: fills.length > 0 ? Math.max(position.lastFillTime ?? 0, fills[fills.length - 1]!.time) : position.lastFillTime,
      };
      if (next.fillsBlock !== position.fillsBlock || next.fundingBlock !== position.fundingBlock) {
        await this.checkpoints.save(q, name, next);
        await this.readVersions.bump(q, 'projections');
      }

      return {
        afterBlock: position.fillsBlock,
        toBlock: next.fillsBlock,
        fills: fills.length,
        fundingPayments: inOrder.length,
        lateFundingPayments: late.length,
        closedTrades,
        outOfOrderFills: built.outOfOrder,
        keptFills,
        more: frontier.fills !== null && toBlock < frontier.fills,
        blockless: frontier.blockless,
      };
    });
  }
}

function keyOf(k: TradeKey): string {
  return `${k.address}|${k.coin}`;
}

/** The perp (address, coin) keys the facts touch, once each (spot fills make no trades). */
function tradeKeys(facts: TradeKey[]): TradeKey[] {
  const keys = new Map<string, TradeKey>();
  for (const { address, coin } of facts) if (!isSpotCoin(coin)) keys.set(keyOf({ address, coin }), { address, coin });
  return [...keys.values()];
}

/**
 * Adds each late payment to the open trade of its key when that trade was already open at the payment's
 * time (the builder's rule: openTime < time); returns the others, which belong to a stored closed trade
 * or to none.
 */
function applyLateFunding(states: OpenTradeState[], late: ProjectedFunding[]): LateFundingPayment[] {
  const open = new Map(states.map((s) => [keyOf(s), s]));
  const rest: LateFundingPayment[] = [];
  for (const payment of late) {
    const state = open.get(keyOf(payment));
    if (state && state.openTime < payment.time) state.funding = str(dec(state.funding).plus(payment.usdc));
    else rest.push(payment);
  }
  return rest;
}

/**
 * Feeds fills and in-window funding to the builder in time order (funding before the fills of its
 * millisecond, as the builder expects). A fill older than the last one projected for its key would make
 * the builder throw: it is counted and left out rather than stopping every later window.
 */
function buildTrades(
  builder: ClosedTradeBuilder,
  fills: ProjectedFill[],
  funding: ProjectedFunding[],
): { closed: ClosedTrade[]; open: OpenTradeState[]; outOfOrder: number } {
  const closed: ClosedTrade[] = [];
  let outOfOrder = 0;
  let next = 0;
  for (const fill of fills) {
    while (next < funding.length && funding[next]!.time <= fill.time) builder.addFunding(funding[next]!.address, funding[next++]!);
    try {
      closed.push(...builder.add(fill.address, fill));
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      outOfOrder += 1;
    }
  }
  for (; next < funding.length; next++) builder.addFunding(funding[next]!.address, funding[next]!);
  return { closed, open: builder.openTrades(), outOfOrder };
}
