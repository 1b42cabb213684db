import Big from 'big.js';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { NodeBlock } from '#exchange';
import { ExchangeFactsWriter, FillProjector } from '#market';
import { address, feed, fillsBlock, fundingBlock, startedWriter, wireFill } from '#testing';
import { prng } from './prng.js';

// The closed-trades suites' data: round trips written as hl-node fills and funding, and the trades and summaries they must make.

export const LIST = '/api/external/closed-trades';
export const SUMMARY = '/api/external/closed-trades/summary';
const MIN = 60_000;
const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;
export const iso = (ms: number) => new Date(ms).toISOString();
export const NOW = Date.now();

/** Quotients as the API documents them: rounded half to even at 18 decimals. */
const D = Big();
D.DP = 18;
D.RM = Big.roundHalfEven;

// Wallets as the feed writes them (lower case); requests spell them in other cases.
export const W = address(0xc10);
export const FLAT = address(0xc20); // only trades whose net result is exactly zero
export const NOBODY = address(0xc30);
export const EDGE = address(0xc40); // where the gross PnL, or the listed numbers added as doubles, would call the outcome wrongly
export const mixedCase = (a: string) => `0x${a.slice(2).toUpperCase()}`;

interface Leg {
  time: number;
  px: string;
  sz: string;
  fee: string;
  closedPnl: string;
  tid: number;
}

/** One trade as written: its opening and closing fills and the funding paid while it was open. */
interface TradeSpec {
  address: string;
  coin: string;
  side: 'long' | 'short';
  opens: Leg[];
  closes: Leg[];
  funding: Array<{ time: number; usdc: string }>;
  /** |position| already open before the first fill: the trade is partial. */
  carried?: string;
}

const random = prng(7_2026);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const PRICES: Record<string, number> = { BTC: 60_000, ETH: 3_000, SOL: 150, 'xyz:TSLA': 250, DOGE: 0.2 };
let tid = 1;

/**
 * A round trip of `coin` opening at `openAt` and closing `durationMs` later: one or two opening fills and
 * one or two closing fills, fees (a maker rebate now and then), a gross PnL that wins or loses, and
 * funding payments strictly inside (a payment at a fill's own millisecond would be paid before it).
 */
function roundTrip(
  wallet: string,
  coin: string,
  openAt: number,
  durationMs: number,
  options: { win?: boolean; funding?: boolean } = {},
): TradeSpec {
  const side = random() < 0.55 ? 'long' : 'short';
  const entry = new Big(PRICES[coin]!).times(0.9 + Math.floor(random() * 200) / 1000).round(2);
  const sizes = [new Big(1 + Math.floor(random() * 30)).div(10)];
  if (random() < 0.4) sizes.push(new Big(1 + Math.floor(random() * 20)).div(10));
  const total = sizes.reduce((s, x) => s.plus(x), new Big(0));
  const win = options.win ?? random() < 0.6;
  const move = new Big(Math.floor(random() * 50) + 1).div(1000).times(win === (side === 'long') ? 1 : -1);
  const exit = entry.times(new Big(1).plus(move)).round(2);
  const fee = () => (random() < 0.15 ? '-0.05' : new Big(Math.floor(random() * 300) + 1).div(100).toFixed());
  const opens = sizes.map((sz, i) => ({
    time: openAt + i * 1_000,
    px: (i === 0 ? entry : entry.plus(0.5)).toFixed(),
    sz: sz.toFixed(),
    fee: fee(),
    closedPnl: '0',
    tid: tid++,
  }));
  const closeSizes =
    random() < 0.4 && total.gt(0.1) ? [total.div(2).round(1, Big.roundDown), total.minus(total.div(2).round(1, Big.roundDown))] : [total];
  const closes = closeSizes.map((sz, i) => {
    const pnl = exit
      .minus(entry)
      .times(sz)
      .times(side === 'long' ? 1 : -1);
    return {
      time: openAt + durationMs - (closeSizes.length - 1 - i) * 1_000,
      px: exit.toFixed(),
      sz: sz.toFixed(),
      fee: fee(),
      closedPnl: pnl.toFixed(),
      tid: tid++,
    };
  });
  const funding =
    (options.funding ?? random() < 0.5)
      ? [{ time: openAt + Math.floor(durationMs / 2) + 7, usdc: new Big(Math.floor(random() * 200) - 120).div(100).toFixed() }]
      : [];
  return { address: wallet, coin, side, opens, closes, funding };
}

// W: 130 trades closed in the last 6.5 days (more than a default page), one after another over the five
// coins; trades closed 9.5 to 800 days ago; a partial DOGE trade (a long already open before the first fill
// seen, only reduced: a loss); a BTC long still open. Every close time is more than a day from any
// interval's edge. FLAT: two trades whose net result is exactly zero.
const RECENT: TradeSpec[] = Array.from({ length: 130 }, (_, i) => {
  const slot = NOW - 6.5 * DAY + i * 70 * MIN;
  const coin = pick(['BTC', 'ETH', 'SOL', 'xyz:TSLA']);
  // SOL only wins, so its record has no loss: profitFactor, payoffRatio and largestLossUsd are null.
  const spec = roundTrip(
    W,
    coin,
    slot + 17,
    (1 + Math.floor(random() * 60)) * MIN + 333,
    coin === 'SOL' ? { win: true, funding: false } : {},
  );
  if (coin === 'SOL') {
    // A gross PnL above the fees: a win after them too.
    const fees = [...spec.opens, ...spec.closes].reduce((s, l) => s.plus(l.fee), new Big(0));
    spec.closes[0] = { ...spec.closes[0]!, closedPnl: fees.plus(spec.closes[0]!.closedPnl).plus(1).toFixed() };
  }
  return spec;
});
const OLD_DAYS = [9.5, 20, 45, 100, 200, 300, 400, 800];
const OLD: TradeSpec[] = OLD_DAYS.map((days, i) =>
  roundTrip(W, i % 2 === 0 ? 'ETH' : 'BTC', NOW - days * DAY - 2 * HOUR, 2 * HOUR, { win: i % 3 !== 0 }),
);
export const DOGE_AT = NOW - 2 * DAY - 17 * MIN + 123;
const PARTIAL: TradeSpec = {
  address: W,
  coin: 'DOGE',
  side: 'long',
  carried: '1000',
  opens: [],
  closes: [{ time: DOGE_AT, px: '0.19', sz: '1000', fee: '0.1', closedPnl: '-10', tid: tid++ }],
  funding: [],
};
const FLAT_TRADES: TradeSpec[] = [0, 1].map((i) => {
  const spec = roundTrip(FLAT, 'ETH', NOW - (3 + i) * DAY, HOUR, { funding: false });
  // The gross PnL pays the fees exactly: neither a win nor a loss.
  const fees = [...spec.opens, ...spec.closes].reduce((s, l) => s.plus(l.fee), new Big(0));
  spec.closes = spec.closes.map((l, j) => ({ ...l, closedPnl: j === 0 ? fees.toFixed() : '0' }));
  return spec;
});
// EDGE: BTC longs 29 days ago (a day inside the 30-day interval) and one 31 days ago (outside): a gross gain of
// 0.1 that 1.1 of fees turn into a loss; a net of exactly 0 whose listed numbers, added as doubles, make
// 5.6e-17 (0.1 - -0.2 + -0.3: a maker rebate and funding paid); a win; and the win outside.
const edgeTrade = (hoursAgo: number, closedPnl: string, fees: [string, string], funding?: string): TradeSpec => {
  const at = NOW - hoursAgo * HOUR;
  return {
    address: EDGE,
    coin: 'BTC',
    side: 'long',
    opens: [{ time: at, px: '60000', sz: '0.1', fee: fees[0], closedPnl: '0', tid: tid++ }],
    closes: [{ time: at + 30 * MIN, px: '60001', sz: '0.1', fee: fees[1], closedPnl, tid: tid++ }],
    funding: funding === undefined ? [] : [{ time: at + 10 * MIN, usdc: funding }],
  };
};
const EDGE_TRADES = [
  edgeTrade(29 * 24, '0.1', ['0.6', '0.5']),
  edgeTrade(29 * 24 - 2, '0.1', ['-0.2', '0'], '-0.3'),
  edgeTrade(29 * 24 - 4, '5', ['0.1', '0.1'], '0.2'),
  edgeTrade(31 * 24, '5', ['0.1', '0.1']),
];
const CLOSED = [...RECENT, ...OLD, PARTIAL, ...FLAT_TRADES, ...EDGE_TRADES];
const STILL_OPEN: TradeSpec = { ...roundTrip(W, 'BTC', NOW - 30 * MIN, 0), closes: [] };

/** The hl-node fills of a trade, each with the position it started from. */
function fillsOf(spec: TradeSpec): Array<{ time: number; wallet: string; fill: ReturnType<typeof wireFill> }> {
  const sign = spec.side === 'long' ? 1 : -1;
  let position = new Big(spec.carried ?? 0).times(sign);
  const out: Array<{ time: number; wallet: string; fill: ReturnType<typeof wireFill> }> = [];
  for (const [legs, opening] of [
    [spec.opens, true],
    [spec.closes, false],
  ] as const) {
    for (const leg of legs) {
      const buy = opening === (spec.side === 'long');
      const fill = wireFill({
        coin: spec.coin,
        px: leg.px,
        sz: leg.sz,
        side: buy ? 'B' : 'A',
        time: leg.time,
        tid: leg.tid,
        startPosition: position.toFixed(),
        dir: `${opening ? 'Open' : 'Close'} ${spec.side === 'long' ? 'Long' : 'Short'}`,
        closedPnl: leg.closedPnl,
        fee: leg.fee,
      });
      out.push({ time: leg.time, wallet: spec.address, fill });
      position = position.plus(new Big(leg.sz).times(buy ? 1 : -1));
    }
  }
  return out;
}

/** Every fill and funding payment as hl-node blocks, one per event, in time order. */
function blocks(): NodeBlock[] {
  const specs = [...CLOSED, STILL_OPEN];
  const events = [
    ...specs.flatMap(fillsOf).map((f) => ({ time: f.time, make: (n: number) => fillsBlock(n, f.time, [[f.wallet, f.fill]]) })),
    ...specs.flatMap((s) =>
      s.funding.map((p) => ({
        time: p.time,
        make: (n: number) => fundingBlock(n, p.time, [{ user: s.address, coin: s.coin, usdc: p.usdc, szi: '1' }]),
      })),
    ),
  ].sort((a, b) => a.time - b.time);
  return events.map((e, i) => e.make(1_000 + i));
}

/** The exact trade the projector should store, from the fills written (decimals as strings). */
function exactTrade(spec: TradeSpec) {
  const first = spec.opens[0] ?? spec.closes[0]!;
  const last = spec.closes[spec.closes.length - 1]!;
  const legs = [...spec.opens, ...spec.closes];
  const sum = (values: Big[]) => values.reduce((s, v) => s.plus(v), new D(0));
  const average = (ls: Leg[]) =>
    ls.length === 0
      ? null
      : sum(ls.map((l) => new D(l.px).times(l.sz)))
          .div(sum(ls.map((l) => new D(l.sz))))
          .toFixed();
  const hash = createHash('sha256')
    .update(`${spec.address}|${spec.coin}|tid:${first.tid}|${spec.carried ? 'carried' : 'opened'}`)
    .digest('hex');
  return {
    address: spec.address,
    hash,
    id: `${first.time}-${hash.slice(0, 16)}`,
    side: spec.side,
    coin: spec.coin,
    avgExit: average(spec.closes),
    avgEntry: average(spec.opens),
    duration: last.time - first.time,
    openTime: first.time,
    closeTime: last.time,
    partial: spec.carried !== undefined,
    totalSize: sum(spec.opens.map((l) => new D(l.sz))).toFixed(),
    totalUsd: sum(spec.opens.map((l) => new D(l.px).times(l.sz))).toFixed(),
    exitUsd: sum(spec.closes.map((l) => new D(l.px).times(l.sz))).toFixed(),
    realizedPnlUsd: sum(legs.map((l) => new D(l.closedPnl))).toFixed(),
    countFills: legs.length,
    fee: sum(legs.map((l) => new D(l.fee))).toFixed(),
    fundingUsd: sum(spec.funding.map((p) => new D(p.usdc))).toFixed(),
  };
}
type ExactTrade = ReturnType<typeof exactTrade>;

/** The contract's Closed trade: numbers as JSON numbers, times ISO 8601. */
export function tradeJson(t: ExactTrade) {
  return {
    address: t.address,
    hash: t.hash,
    id: t.id,
    side: t.side,
    coin: t.coin,
    avgExit: t.avgExit === null ? null : Number(t.avgExit),
    avgEntry: t.avgEntry === null ? null : Number(t.avgEntry),
    duration: t.duration,
    openTime: iso(t.openTime),
    closeTime: iso(t.closeTime),
    partial: t.partial,
    totalSize: Number(t.totalSize),
    totalUsd: Number(t.totalUsd),
    realizedPnlUsd: Number(t.realizedPnlUsd),
    countFills: t.countFills,
    fee: Number(t.fee),
    feeUsd: Number(t.fee),
    fundingUsd: Number(t.fundingUsd),
    netPnlUsd: Number(net(t).toFixed()),
    outcome: net(t).gt(0) ? 'win' : net(t).lt(0) ? 'loss' : 'even',
  };
}

/** The net result that decides win (> 0) or loss (< 0), exact. */
const net = (t: ExactTrade) => new D(t.realizedPnlUsd).minus(t.fee).plus(t.fundingUsd);

const newestFirst = (a: ExactTrade, b: ExactTrade) => b.closeTime - a.closeTime || (a.hash < b.hash ? 1 : a.hash > b.hash ? -1 : 0);
export const TRADES = CLOSED.map(exactTrade).sort(newestFirst);
export const ofWallet = (wallet: string, keep: (t: ExactTrade) => boolean = () => true) =>
  TRADES.filter((t) => t.address === wallet && keep(t));
export const closedIn = (start: number, end: number) => (t: ExactTrade) => t.closeTime >= start && t.closeTime <= end;

/**
 * The summary record, figure by figure from its definitions: net = realized - fee + funding decides win
 * (> 0) or loss (< 0); quotients rounded half to even at 18 decimals; durations half up to the ms.
 */
function record(trades: ExactTrade[]) {
  const n = trades.length;
  const wins = trades.filter((t) => net(t).gt(0));
  const losses = trades.filter((t) => net(t).lt(0));
  const sum = (values: Big[]) => values.reduce((s, v) => s.plus(v), new D(0));
  const profit = sum(wins.map(net));
  const loss = sum(losses.map(net));
  const total = sum(trades.map(net));
  const longs = trades.filter((t) => t.side === 'long');
  const shorts = trades.filter((t) => t.side === 'short');
  const durations = trades.map((t) => t.duration).sort((a, b) => a - b);
  const halfUp = (v: Big) => Number(v.round(0, Big.roundHalfUp).toFixed());
  const middle = Math.floor(n / 2);
  return {
    tradeCount: n,
    winCount: wins.length,
    lossCount: losses.length,
    winRate: n === 0 ? null : wins.length / n,
    longCount: longs.length,
    shortCount: shorts.length,
    longWinRate: longs.length === 0 ? null : longs.filter((t) => net(t).gt(0)).length / longs.length,
    shortWinRate: shorts.length === 0 ? null : shorts.filter((t) => net(t).gt(0)).length / shorts.length,
    realizedPnlUsd: Number(sum(trades.map((t) => new D(t.realizedPnlUsd))).toFixed()),
    grossProfitUsd: Number(profit.toFixed()),
    grossLossUsd: Number(loss.toFixed()),
    feesUsd: Number(sum(trades.map((t) => new D(t.fee))).toFixed()),
    fundingUsd: Number(sum(trades.map((t) => new D(t.fundingUsd))).toFixed()),
    volumeUsd: Number(sum(trades.map((t) => new D(t.totalUsd).plus(t.exitUsd))).toFixed()),
    avgSizeUsd:
      n === 0
        ? null
        : Number(
            sum(trades.map((t) => new D(t.totalUsd)))
              .div(n)
              .toFixed(),
          ),
    avgDurationMs: n === 0 ? null : halfUp(new D(durations.reduce((s, d) => s + d, 0)).div(n)),
    medianDurationMs:
      n === 0 ? null : n % 2 === 1 ? durations[middle]! : halfUp(new D(durations[middle - 1]!).plus(durations[middle]!).div(2)),
    profitFactor: losses.length === 0 ? null : Number(profit.div(loss.abs()).toFixed()),
    payoffRatio:
      wins.length === 0 || losses.length === 0 ? null : Number(profit.div(wins.length).div(loss.abs().div(losses.length)).toFixed()),
    expectancyUsd: n === 0 ? null : Number(total.div(n).toFixed()),
    largestWinUsd:
      wins.length === 0
        ? null
        : Number(
            wins
              .map(net)
              .reduce((a, b) => (b.gt(a) ? b : a))
              .toFixed(),
          ),
    largestLossUsd:
      losses.length === 0
        ? null
        : Number(
            losses
              .map(net)
              .reduce((a, b) => (b.lt(a) ? b : a))
              .toFixed(),
          ),
  };
}

export function summaryBody(wallet: string, interval: string, trades: ExactTrade[]) {
  const coins = [...new Set(trades.map((t) => t.coin))].sort();
  return {
    status: 'success',
    data: {
      address: wallet,
      interval,
      summary: record(trades),
      byCoin: coins.map((coin) => ({ coin, ...record(trades.filter((t) => t.coin === coin)) })),
    },
  };
}

export const badRequest = (field: string, message: string) => ({
  status: 'error',
  message: `Invalid parameters: ${field}`,
  errors: [{ field, message }],
});

/** The fills and funding payments as hl-node blocks, projected into closed trades as the ingestor does. */
export async function seedClosedTrades(dataSource: DataSource): Promise<void> {
  const written = blocks();
  const facts = await startedWriter(dataSource, ExchangeFactsWriter);
  for (let i = 0; i < written.length; i += 100) await facts.writeBlocks(feed(written.slice(i, i + 100)), 'node');
  const projector = await startedWriter(dataSource, FillProjector);
  while ((await projector.project('node')).more);
}
