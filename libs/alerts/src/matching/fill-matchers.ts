import type { Fill } from '#exchange';
import type { AlertRule, MatchedDelivery } from '../alert.types.js';
import { Dec, plain, ratio } from './decimal.js';
import { deliveryOf as delivery } from './delivery-id.js';
import { isSpotCoin, type FillsBlockOccurrence } from './match-input.js';
import type { RuleIndex } from './rule-index.js';

/** A position_activity delivery carries at most this many fills; a larger group is split. */
export const MAX_FILLS_PER_DELIVERY = 100;

const byTimeThenTid = (a: Fill, b: Fill) => a.time - b.time || a.tid - b.tid;
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** The order of a payload's wallets and markets, by code unit (not locale): the same on every machine. */
const byAddressThenMarket = (a: { address: string; market: string }, b: { address: string; market: string }) =>
  compareText(a.address, b.address) || compareText(a.market, b.market);

/** Total size and USD notional (sum of size x price) of fills, exactly. */
function totals(fills: readonly Fill[]): { size: Dec; notional: Dec } {
  let size = new Dec(0);
  let notional = new Dec(0);
  for (const f of fills) {
    size = size.plus(f.sz);
    notional = notional.plus(new Dec(f.sz).times(f.px));
  }
  return { size, notional };
}
const inList = (list: readonly string[] | undefined, value: string) => list === undefined || list.includes(value);

/** Groups items under a key, keeping first-seen order. */
function groupInto<G>(groups: Map<string, G>, key: string, create: () => G, add: (g: G) => void): void {
  let group = groups.get(key);
  if (!group) groups.set(key, (group = create()));
  add(group);
}

/** The fill as position_activity delivers it (and the `fills` stream sends it): the wire fields, and where it sits in the chain. */
export function activityFill(address: string, f: Fill, block: FillsBlockOccurrence): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: `${f.tid}:${address}`,
    coin: f.coin,
    px: f.px,
    sz: f.sz,
    side: f.side,
    time: f.time,
    oid: f.oid,
    tid: f.tid,
    hash: f.hash,
    fullCoinName: f.coin,
    fillType: 'perp',
    dir: f.dir,
    startPosition: f.startPosition,
    closedPnl: f.closedPnl,
    fee: f.fee,
    feeToken: f.feeToken,
    builder: f.builder,
    builderFee: f.builderFee,
    crossed: f.crossed,
    cloid: f.cloid,
    blockNumber: block.blockNumber,
    blockTime: block.blockTime,
    localTime: block.localTime,
  };
  if (f.twapId !== null) out.twapId = f.twapId;
  if (f.liquidation !== null) out.liquidation = f.liquidation;
  return out;
}

/** The chunks of one wallet's fills in one market as position_activity delivers them, in time order. */
function activityChunks(
  address: string,
  coin: string,
  fills: readonly Fill[],
  block: FillsBlockOccurrence,
): Array<{ identity: string; last: number; data: Record<string, unknown> }> {
  const chunks = [];
  for (let i = 0; i < fills.length; i += MAX_FILLS_PER_DELIVERY) {
    const chunk = fills.slice(i, i + MAX_FILLS_PER_DELIVERY);
    const last = chunk[chunk.length - 1]!.time;
    chunks.push({
      identity: `position_activity|${address}|${coin}|${chunk.map((f) => f.tid).join(',')}`,
      last,
      data: {
        address,
        coin,
        fillCount: chunk.length,
        // Only the fills where this wallet was the one liquidated: as the liquidator it merely traded.
        liquidationCount: chunk.filter((f) => f.liquidation !== null && f.liquidation.liquidatedUser.toLowerCase() === address).length,
        firstFillAt: chunk[0]!.time,
        lastFillAt: last,
        fills: chunk.map((f) => activityFill(address, f, block)),
      },
    });
  }
  return chunks;
}

/**
 * `position_activity`: a tracked wallet's non-TWAP perpetual fills, per rule, wallet and market. A
 * wallet is tracked by many rules at once, so its fills are grouped and their payloads built once per
 * wallet and market, and shared by every rule that takes them all (only a rule created inside the
 * block takes fewer).
 */
export function matchPositionActivity(index: RuleIndex, block: FillsBlockOccurrence, out: MatchedDelivery[]): void {
  if (!index.has('position_activity')) return;
  const groups = new Map<string, { rules: readonly AlertRule[]; address: string; coin: string; fills: Fill[] }>();
  for (const { address, fill } of block.fills) {
    if (fill.twapId !== null || isSpotCoin(fill.coin)) continue;
    const rules = index.tracking('position_activity', address);
    if (rules.length === 0) continue;
    // Inline rather than groupInto: this runs for every tracked fill, and two closures each add up.
    const key = `${address}|${fill.coin}`;
    const group = groups.get(key);
    if (group) group.fills.push(fill);
    else groups.set(key, { rules, address, coin: fill.coin, fills: [fill] });
  }
  for (const { rules, address, coin, fills } of groups.values()) {
    fills.sort(byTimeThenTid);
    let shared: ReturnType<typeof activityChunks> | undefined;
    for (const rule of rules) {
      if (!inList(rule.filters.coin, coin)) continue;
      const chunks =
        fills[0]!.time >= rule.createdAtMs
          ? (shared ??= activityChunks(address, coin, fills, block))
          : activityChunks(
              address,
              coin,
              fills.filter((f) => f.time >= rule.createdAtMs),
              block,
            );
      for (const { identity, last, data } of chunks) out.push(delivery(rule, identity, last, data));
    }
  }
}

/**
 * `twap_execution`: each slice (or simultaneous slices) of a tracked wallet's TWAP. Simultaneous
 * fills share a time, so a rule takes a group whole or not at all: one payload serves every rule.
 */
export function matchTwapExecution(index: RuleIndex, block: FillsBlockOccurrence, out: MatchedDelivery[]): void {
  if (!index.has('twap_execution')) return;
  const groups = new Map<string, { rules: readonly AlertRule[]; address: string; fills: Fill[] }>();
  for (const { address, fill } of block.fills) {
    if (fill.twapId === null) continue;
    const rules = index.tracking('twap_execution', address);
    if (rules.length === 0) continue;
    groupInto(
      groups,
      `${address}|${fill.twapId}|${fill.time}`,
      () => ({ rules, address, fills: [] as Fill[] }),
      (g) => g.fills.push(fill),
    );
  }
  for (const { rules, address, fills } of groups.values()) {
    fills.sort(byTimeThenTid);
    const first = fills[0]!;
    let shared: { identity: string; data: Record<string, unknown> } | undefined;
    for (const rule of rules) {
      if (first.time < rule.createdAtMs || !inList(rule.filters.coin, first.coin)) continue;
      if (!shared) {
        shared = {
          identity: `twap_execution|${address}|${first.twapId}|${fills.map((f) => f.tid).join(',')}`,
          data: {
            address,
            coin: first.coin,
            twapId: first.twapId,
            fillCount: fills.length,
            firstFillAt: first.time,
            lastFillAt: fills[fills.length - 1]!.time,
            fills: fills.map((f) => ({ id: `${f.tid}:${address}`, twapId: f.twapId, px: f.px, sz: f.sz, side: f.side, time: f.time })),
          },
        };
      }
      out.push(delivery(rule, shared.identity, first.time, shared.data));
    }
  }
}

export interface LiquidationGroup {
  address: string;
  market: string;
  side: 'long' | 'short';
  notional: Dec;
  eventTime: number;
  /** The place in its block of the group's first fill. */
  firstIndex: number;
  data: Record<string, unknown>;
}

/**
 * The liquidated wallets' own fills of a block, per source hash (in order of first appearance), one group
 * per wallet and market ordered by wallet then market: what one `liquidation` delivery or stream event tells.
 */
export function liquidationGroups(block: FillsBlockOccurrence): Array<{ hash: string; groups: LiquidationGroup[] }> {
  const byHash = new Map<string, Map<string, { address: string; market: string; firstIndex: number; fills: Fill[] }>>();
  block.fills.forEach(({ address, fill }, index) => {
    if (fill.liquidation === null || fill.liquidation.liquidatedUser.toLowerCase() !== address) return;
    let groups = byHash.get(fill.hash);
    if (!groups) byHash.set(fill.hash, (groups = new Map()));
    groupInto(
      groups,
      `${address}|${fill.coin}`,
      () => ({ address, market: fill.coin, firstIndex: index, fills: [] as Fill[] }),
      (g) => g.fills.push(fill),
    );
  });
  return [...byHash].map(([hash, groups]) => ({
    hash,
    groups: [...groups.values()].map(summariseLiquidation(hash)).sort(byAddressThenMarket),
  }));
}

/** `liquidation`: the liquidated wallet's own fills, per source hash, with a group per wallet and market. */
export function matchLiquidations(index: RuleIndex, block: FillsBlockOccurrence, out: MatchedDelivery[]): void {
  if (!index.has('liquidation')) return;
  for (const { hash, groups: summaries } of liquidationGroups(block)) {
    const perRule = new Map<string, { rule: AlertRule; groups: LiquidationGroup[] }>();
    for (const g of summaries) {
      for (const rule of index.concerning('liquidation', g.address)) {
        const f = rule.filters;
        if (g.eventTime < rule.createdAtMs || !inList(f.markets, g.market)) continue;
        if (f.side && f.side !== 'both' && f.side !== g.side) continue;
        const threshold = index.thresholdUsd(rule);
        if (threshold !== undefined && g.notional.lt(threshold)) continue;
        groupInto(
          perRule,
          String(rule.id),
          () => ({ rule, groups: [] as LiquidationGroup[] }),
          (r) => r.groups.push(g),
        );
      }
    }
    for (const { rule, groups: passing } of [...perRule.values()].sort((a, b) => a.rule.id - b.rule.id)) {
      const eventTime = Math.max(...passing.map((g) => g.eventTime));
      out.push(
        delivery(rule, `liquidation|${hash}|${passing.map((g) => `${g.address}:${g.market}`).join(',')}`, eventTime, {
          liquidations: passing.map((g) => g.data),
        }),
      );
    }
  }
}

function summariseLiquidation(hash: string) {
  return ({
    address,
    market,
    firstIndex,
    fills,
  }: {
    address: string;
    market: string;
    firstIndex: number;
    fills: Fill[];
  }): LiquidationGroup => {
    fills.sort(byTimeThenTid);
    const { size, notional } = totals(fills);
    const side = new Dec(fills[0]!.startPosition).gt(0) ? 'long' : 'short';
    const eventTime = fills[fills.length - 1]!.time;
    return {
      address,
      market,
      side,
      notional,
      eventTime,
      firstIndex,
      data: {
        address,
        market,
        side,
        size: plain(size),
        usdNotional: plain(notional),
        executionPrice: ratio(notional, size),
        fills: fills.map((f) => ({ id: `${f.tid}:${address}`, px: f.px, sz: f.sz, startPosition: f.startPosition })),
        sourceEventId: hash,
        eventTime,
      },
    };
  };
}

function positionEffect(dir: string): string {
  if (dir.startsWith('Open')) return 'increase';
  if (dir.startsWith('Close')) return 'decrease';
  if (dir === 'Long > Short' || dir === 'Short > Long') return 'flip';
  return 'unknown';
}

/** `large_market_order`: taker orders (not liquidations) whose fills in a block add up to more than the threshold. */
export function matchLargeMarketOrders(index: RuleIndex, block: FillsBlockOccurrence, out: MatchedDelivery[]): void {
  const rules = index.global('large_market_order');
  if (rules.length === 0) return;
  const orders = new Map<string, { address: string; market: string; oid: number; fills: Fill[] }>();
  for (const { address, fill } of block.fills) {
    if (!fill.crossed || fill.liquidation !== null || isSpotCoin(fill.coin)) continue;
    groupInto(
      orders,
      `${address}|${fill.coin}|${fill.oid}`,
      () => ({ address, market: fill.coin, oid: fill.oid, fills: [] as Fill[] }),
      (o) => o.fills.push(fill),
    );
  }
  if (orders.size === 0) return;
  // Most orders are far below every threshold. An estimate in binary floating point under 99.9 % of the
  // lowest threshold drops an order for certain (its rounding error is a few units in 10^15), so only
  // orders near or above it are added up, and decided, in exact decimals.
  const lowest = index.lowestThresholdUsd('large_market_order')!;
  const clearlyBelow = Number(lowest.toFixed()) * 0.999;
  const summaries = [...orders.values()]
    .filter(({ fills }) => fills.reduce((sum, f) => sum + Number(f.sz) * Number(f.px), 0) >= clearlyBelow)
    .map(({ address, market, oid, fills }) => ({ address, market, oid, fills: fills.sort(byTimeThenTid), ...totals(fills) }))
    .filter((o) => o.notional.gt(lowest))
    .sort((a, b) => byAddressThenMarket(a, b) || a.oid - b.oid)
    .map(({ address, market, oid, fills, size, notional }) => {
      const direction = fills[0]!.side === 'B' ? 'buy' : 'sell';
      const eventTime = fills[fills.length - 1]!.time;
      return {
        address,
        market,
        oid,
        direction,
        notional,
        eventTime,
        data: {
          address,
          market,
          direction,
          positionEffect: positionEffect(fills[0]!.dir),
          orderId: oid,
          aggregatedSize: plain(size),
          usdNotional: plain(notional),
          averageExecutionPrice: ratio(notional, size),
          fills: fills.map((f) => ({ id: `${f.tid}:${address}`, px: f.px, sz: f.sz })),
          eventTime,
        },
      };
    });
  if (summaries.length === 0) return;
  for (const rule of rules) {
    const f = rule.filters;
    const passing = summaries.filter(
      (o) =>
        o.eventTime >= rule.createdAtMs &&
        inList(f.markets, o.market) &&
        (!f.direction || f.direction === 'both' || f.direction === o.direction) &&
        o.notional.gt(index.thresholdUsd(rule)!),
    );
    if (passing.length === 0) continue;
    out.push(
      delivery(
        rule,
        `large_market_order|${block.blockNumber}|${passing.map((o) => `${o.address}:${o.market}:${o.oid}`).join(',')}`,
        Math.max(...passing.map((o) => o.eventTime)),
        {
          orders: passing.map((o) => o.data),
        },
      ),
    );
  }
}
