import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { simulate, type Fill } from '#exchange';
import { feedBlock, openFactsDatabase, parseLine, startedWriter, useTestEnvironment } from '#testing';
import { buildClosedTrades, ClosedTradeBuilder } from '../closed-trades/closed-trade.builder.js';
import { netResult, tradeOutcome } from '../closed-trades/closed-trades.summary.js';
import type { ClosedTrade, FundingPayment, OpenTradeState } from '../closed-trades/closed-trade.types.js';
import { BuildersQueries } from '../read/builders/builders.queries.js';
import { ClosedTradesQueries } from '../read/closed-trades/closed-trades.queries.js';
import { FillProjector } from './fill.projector.js';

/** A built trade as the list reads it back: the net result and outcome come from Postgres's OUTCOME_SQL, checked here against the pure rule. */
const listed = (t: ClosedTrade) => ({ ...t, netPnlUsd: netResult(t).toFixed(), outcome: tradeOutcome(t) });

const config = useTestEnvironment();
// Six minutes across the 09:00 UTC funding round, so trades carry funding.
const START = Date.UTC(2026, 5, 28, 8, 57);
const lines = [...simulate({ seed: 23, startTimeMs: START, wallets: 60, markets: 6, eventsPerSecond: 3 }, START + 6 * 60_000)];
const blocks = lines.map((l, i) => feedBlock(l.stream, parseLine(l.stream, l.line), i + 1));

const fillsOf = new Map<string, Fill[]>();
const fundingOf = new Map<string, FundingPayment[]>();
for (const { block } of blocks) {
  if (block.stream === 'node_fills_by_block') {
    for (const { address, fill } of block.events) fillsOf.set(address.toLowerCase(), [...(fillsOf.get(address.toLowerCase()) ?? []), fill]);
  }
  if (block.stream === 'misc_events_by_block') {
    for (const event of block.events) {
      if (event.kind !== 'funding') continue;
      for (const d of event.deltas) {
        const payment = { time: event.timeMs, coin: d.coin, usdc: d.fundingAmount };
        fundingOf.set(d.user.toLowerCase(), [...(fundingOf.get(d.user.toLowerCase()) ?? []), payment]);
      }
    }
  }
}

let dataSource: DataSource;

beforeAll(async () => {
  const opened = await openFactsDatabase(config.DATABASE_URL);
  dataSource = opened.dataSource;
  const projector = await startedWriter(dataSource, FillProjector);
  for (let i = 0; i < blocks.length; i += 150) {
    await opened.writer.writeBlocks(blocks.slice(i, i + 150), 'simulator');
    while ((await projector.project('simulator', 200)).more);
  }
});

afterAll(async () => {
  await dataSource?.destroy();
});

describe('FillProjector on a simulated run', () => {
  it('stores for every wallet the trades and open states the pure builder makes of its fills and funding', async () => {
    const repository = new ClosedTradesQueries();
    const expectedTrades: ClosedTrade[] = [];
    const expectedOpen: OpenTradeState[] = [];
    const storedTrades: ClosedTrade[] = [];
    for (const [wallet, fills] of fillsOf) {
      expectedTrades.push(...buildClosedTrades(wallet, fills, fundingOf.get(wallet) ?? []).map(listed));
      storedTrades.push(...(await repository.listByAddress(dataSource, { address: wallet, limit: 10_000 })).trades);
      // What is still open: the same feed as buildClosedTrades (funding before fills of its millisecond).
      const builder = new ClosedTradeBuilder();
      const funding = [...(fundingOf.get(wallet) ?? [])].sort((a, b) => a.time - b.time);
      let next = 0;
      for (const fill of [...fills].sort((a, b) => a.time - b.time || a.tid - b.tid)) {
        while (next < funding.length && funding[next]!.time <= fill.time) builder.addFunding(wallet, funding[next++]!);
        builder.add(wallet, fill);
      }
      for (; next < funding.length; next++) builder.addFunding(wallet, funding[next]!);
      expectedOpen.push(...builder.openTrades());
    }
    const byHash = (a: ClosedTrade, b: ClosedTrade): number => (a.hash < b.hash ? -1 : 1);
    expect(expectedTrades.length).toBeGreaterThan(30);
    expect(expectedTrades.filter((t) => t.fundingUsd !== '0').length).toBeGreaterThan(0);
    expect(storedTrades.sort(byHash)).toEqual(expectedTrades.sort(byHash));

    const rows: Array<{ state: OpenTradeState }> = await dataSource.query(`SELECT state FROM closed_trade_open_states`);
    const byKey = (a: OpenTradeState, b: OpenTradeState): number => (`${a.address}|${a.coin}` < `${b.address}|${b.coin}` ? -1 : 1);
    expect(expectedOpen.some((s) => s.funding !== '0')).toBe(true);
    expect(rows.map((r) => r.state).sort(byKey)).toEqual(expectedOpen.sort(byKey));
  });

  it('sums every builder fill into the all-time builder rows', async () => {
    const routed = [...fillsOf].flatMap(([wallet, fills]) => fills.filter((f) => f.builder !== null).map((f) => ({ wallet, fill: f })));
    const builders = [...new Set(routed.map((r) => r.fill.builder!.toLowerCase()))];
    expect(builders.length).toBeGreaterThan(1);
    const expected = builders
      .map((builder) => {
        const mine = routed.filter((r) => r.fill.builder!.toLowerCase() === builder);
        const revenue = mine.reduce((s, r) => s.plus(r.fill.builderFee!), new Big(0));
        const volume = mine.reduce((s, r) => s.plus(new Big(r.fill.px).times(r.fill.sz)), new Big(0));
        return {
          builder,
          revenue: revenue.toFixed(),
          volume: volume.toFixed(),
          // Fees over routed notional, all time, to 8 places.
          usageFee: revenue.div(volume).round(8, Big.roundHalfUp).toFixed(),
          users: new Set(mine.map((r) => r.wallet)).size,
          revenuePrev: null,
          volumePrev: null,
          usersPrev: null,
          firstFillTime: Math.min(...mine.map((r) => r.fill.time)),
        };
      })
      .sort((a, b) => new Big(b.revenue).cmp(a.revenue));
    const newest = Math.max(...[...fillsOf.values()].flat().map((f) => f.time));
    expect(await new BuildersQueries().rows(dataSource, 'all', newest)).toEqual(expected);
  });
});
