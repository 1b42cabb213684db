import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import type { NodeBlock } from '#exchange';
import { ExchangeFactsWriter, FillProjector } from '#market';
import { address, feed, fillsBlock, fundingBlock, startedWriter, wireFill } from '#testing';
import { ApiHarness } from '../support/api-harness.js';

const LIST = '/api/external/closed-trades';
const SUMMARY = '/api/external/closed-trades/summary';
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const NOW = Date.now();

/** Quotients as the API documents them: rounded half to even at 18 decimals. */
const D = Big();
D.DP = 18;
D.RM = Big.roundHalfEven;

// Wallets as the feed writes them (lower case); requests spell them in other cases.
const W = address(0xc10);
const FLAT = address(0xc20); // only trades whose net result is exactly zero
const NOBODY = address(0xc30);
const mixedCase = (a: string) => `0x${a.slice(2).toUpperCase()}`;

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

function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
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
const DOGE_AT = NOW - 2 * DAY - 17 * MIN + 123;
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
const CLOSED = [...RECENT, ...OLD, PARTIAL, ...FLAT_TRADES];
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
function tradeJson(t: ExactTrade) {
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
  };
}

const newestFirst = (a: ExactTrade, b: ExactTrade) => b.closeTime - a.closeTime || (a.hash < b.hash ? 1 : a.hash > b.hash ? -1 : 0);
const TRADES = CLOSED.map(exactTrade).sort(newestFirst);
const ofWallet = (wallet: string, keep: (t: ExactTrade) => boolean = () => true) => TRADES.filter((t) => t.address === wallet && keep(t));
const closedIn = (start: number, end: number) => (t: ExactTrade) => t.closeTime >= start && t.closeTime <= end;

/**
 * The summary record, figure by figure from its definitions: net = realized - fee + funding decides win
 * (> 0) or loss (< 0); quotients rounded half to even at 18 decimals; durations half up to the ms.
 */
function record(trades: ExactTrade[]) {
  const n = trades.length;
  const net = (t: ExactTrade) => new D(t.realizedPnlUsd).minus(t.fee).plus(t.fundingUsd);
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

function summaryBody(wallet: string, interval: string, trades: ExactTrade[]) {
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

const badRequest = (field: string, message: string) => ({
  status: 'error',
  message: `Invalid parameters: ${field}`,
  errors: [{ field, message }],
});

describe('Closed trades', () => {
  let api: ApiHarness;
  let token: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    api = await ApiHarness.start();
    ({ token } = await api.createConsumer({ name: 'closed-trades-suite', rateLimitPerMinute: 100_000 }));
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
    const written = blocks();
    const facts = await startedWriter(dataSource, ExchangeFactsWriter);
    for (let i = 0; i < written.length; i += 100) await facts.writeBlocks(feed(written.slice(i, i + 100)), 'node');
    const projector = await startedWriter(dataSource, FillProjector);
    while ((await projector.project('node')).more);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await api?.close();
  });

  const get = (path: string) => api.get(path, token);

  /** Every page of a list, each checked to hold at most `limit` trades. */
  async function walk(query: string, limit: number): Promise<unknown[]> {
    const trades: unknown[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(`${LIST}?${query}&limit=${limit}${cursor ? `&nextCursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['nextCursor', 'trades']);
      expect(res.body.trades.length).toBeLessThanOrEqual(limit);
      trades.push(...res.body.trades);
      cursor = res.body.nextCursor;
    } while (cursor !== null);
    return trades;
  }

  describe('GET /api/external/closed-trades', () => {
    it('stored exactly the trades the fills make (the still-open position is none of them)', async () => {
      const rows: Array<{ hash: string }> = await dataSource.query(`SELECT hash FROM closed_trades ORDER BY hash`);
      expect(rows.map((r) => r.hash)).toEqual(TRADES.map((t) => t.hash).sort());
      expect(TRADES.filter((t) => t.fundingUsd !== '0').length).toBeGreaterThan(10);
    });

    it('defaults to the 7 days up to now, newest close first, 100 trades a page', async () => {
      const week = ofWallet(W, closedIn(NOW - 7 * DAY, NOW)).map(tradeJson);
      expect(week).toHaveLength(131); // the recent trades and the partial DOGE one
      const first = await get(`${LIST}?address=${mixedCase(W)}`);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ trades: week.slice(0, 100), nextCursor: expect.stringMatching(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/) });
      const second = await get(`${LIST}?address=${W}&nextCursor=${encodeURIComponent(first.body.nextCursor)}`);
      expect(second.body).toEqual({ trades: week.slice(100), nextCursor: null });
    });

    it('gives the contract fields of each trade, a partial one with a null average entry', async () => {
      const doge = ofWallet(W, (t) => t.coin === 'DOGE').map(tradeJson);
      expect(doge).toEqual([
        {
          address: W,
          hash: doge[0]!.hash,
          id: `${DOGE_AT}-${doge[0]!.hash.slice(0, 16)}`,
          side: 'long',
          coin: 'DOGE',
          avgExit: 0.19,
          avgEntry: null,
          duration: 0,
          openTime: iso(DOGE_AT),
          closeTime: iso(DOGE_AT),
          partial: true,
          totalSize: 0,
          totalUsd: 0,
          realizedPnlUsd: -10,
          countFills: 1,
          fee: 0.1,
          feeUsd: 0.1,
          fundingUsd: 0,
        },
      ]);
      const res = await get(`${LIST}?address=${W}&startTime=${iso(DOGE_AT)}&endTime=${iso(DOGE_AT)}`);
      expect(res.body).toEqual({ trades: doge, nextCursor: null });
    });

    it('walks every trade of a window exactly once with a small limit', async () => {
      const expected = ofWallet(W, closedIn(NOW - 7 * DAY, NOW)).map(tradeJson);
      const seen = await walk(`address=${W}`, 7);
      expect(seen).toEqual(expected);
      expect(new Set(seen.map((t) => (t as { hash: string }).hash)).size).toBe(expected.length);
    });

    it('reads an explicit window with both bounds inclusive, up to exactly 30 days', async () => {
      const start = NOW - 46 * DAY;
      const end = start + 30 * DAY;
      const res = await get(`${LIST}?address=${W}&startTime=${iso(start)}&endTime=${iso(end)}`);
      expect(res.body).toEqual({ trades: ofWallet(W, closedIn(start, end)).map(tradeJson), nextCursor: null });
      expect(res.body.trades).toHaveLength(2); // 20 and 45 days ago

      const recent = ofWallet(W, closedIn(NOW - 7 * DAY, NOW));
      const [newer, older] = [recent[5]!, recent[40]!];
      const edges = await walk(`address=${W}&startTime=${iso(older.closeTime)}&endTime=${iso(newer.closeTime)}`, 500);
      expect(edges).toEqual(recent.slice(5, 41).map(tradeJson));
      const inside = await walk(`address=${W}&startTime=${iso(older.closeTime + 1)}&endTime=${iso(newer.closeTime - 1)}`, 500);
      expect(inside).toEqual(recent.slice(6, 40).map(tradeJson));
    });

    it('defaults endTime to now and startTime to endTime minus 7 days, each alone', async () => {
      const since = NOW - 3 * DAY;
      expect(await walk(`address=${W}&startTime=${iso(since)}`, 500)).toEqual(ofWallet(W, (t) => t.closeTime >= since).map(tradeJson));
      const until = NOW - 3 * DAY;
      const upTo = await walk(`address=${W}&endTime=${iso(until)}`, 500);
      expect(upTo).toEqual(ofWallet(W, closedIn(until - 7 * DAY, until)).map(tradeJson));
      expect(upTo.some((t) => (t as { closeTime: string }).closeTime < iso(NOW - 9 * DAY))).toBe(true); // the trade of 9.5 days ago
    });

    it('accepts limits of 1 and 500, and a time without a zone as UTC', async () => {
      const week = ofWallet(W, closedIn(NOW - 7 * DAY, NOW)).map(tradeJson);
      expect((await get(`${LIST}?address=${W}&limit=1`)).body.trades).toEqual(week.slice(0, 1));
      expect((await get(`${LIST}?address=${W}&limit=500`)).body).toEqual({ trades: week, nextCursor: null });
      const start = NOW - 46 * DAY;
      const zoneless = await get(
        `${LIST}?address=${W}&startTime=${iso(start).replace('Z', '')}&endTime=${iso(start + 30 * DAY).replace('Z', '')}`,
      );
      expect(zoneless.body.trades).toEqual(ofWallet(W, closedIn(start, start + 30 * DAY)).map(tradeJson));
    });

    it("lists one wallet's trades only, and none for a wallet without trades", async () => {
      expect((await get(`${LIST}?address=${FLAT.toUpperCase().replace('0X', '0x')}`)).body).toEqual({
        trades: ofWallet(FLAT).map(tradeJson),
        nextCursor: null,
      });
      expect((await get(`${LIST}?address=${NOBODY}`)).body).toEqual({ trades: [], nextCursor: null });
    });

    it('keeps the window of the first page in the cursor, and refuses another window or an altered cursor', async () => {
      const start = NOW - 6 * DAY;
      const end = NOW - DAY;
      const first = await get(`${LIST}?address=${W}&startTime=${iso(start)}&endTime=${iso(end)}&limit=10`);
      const expected = ofWallet(W, closedIn(start, end)).map(tradeJson);
      expect(first.body.trades).toEqual(expected.slice(0, 10));
      const cursor = encodeURIComponent(first.body.nextCursor);
      // Without the times, the cursor's window goes on; with the same ones too.
      expect((await get(`${LIST}?address=${W}&limit=10&nextCursor=${cursor}`)).body.trades).toEqual(expected.slice(10, 20));
      expect(
        (await get(`${LIST}?address=${W}&startTime=${iso(start)}&endTime=${iso(end)}&limit=10&nextCursor=${cursor}`)).body.trades,
      ).toEqual(expected.slice(10, 20));
      const moved = await get(`${LIST}?address=${W}&startTime=${iso(start + 1)}&limit=10&nextCursor=${cursor}`);
      expect(moved.status).toBe(400);
      expect(moved.body).toEqual(
        badRequest('nextCursor', 'nextCursor continues another window: send the same startTime and endTime as the first page, or none'),
      );

      const [payload, signature] = (first.body.nextCursor as string).split('.') as [string, string];
      const keys = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
      const altered = `${Buffer.from(JSON.stringify([keys[0], keys[1], start - 30 * DAY, keys[3]])).toString('base64url')}.${signature}`;
      for (const [text, reason] of [
        [altered, 'signature does not match'],
        ['x.y', 'signature does not match'],
        ['garbage', 'malformed'],
      ] as const) {
        const res = await get(`${LIST}?address=${W}&nextCursor=${encodeURIComponent(text)}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          badRequest('nextCursor', `nextCursor is not a cursor this list issued (${reason}); start again without it`),
        );
      }
    });

    it.each([
      ['', 'address', 'address is required'],
      ['address=0x12', 'address', 'address must be a 0x address of 40 hex digits'],
      [`address=${W.slice(0, -1)}z`, 'address', 'address must be a 0x address of 40 hex digits'],
      [
        `address=${W}&startTime=2026-01-01T00:00:00Z&endTime=2026-01-31T00:00:00.001Z`,
        'endTime',
        'endTime must be at most 30 days after startTime',
      ],
      [`address=${W}&startTime=${iso(NOW - 31 * DAY)}`, 'endTime', 'endTime must be at most 30 days after startTime'],
      [`address=${W}&startTime=2026-01-02T00:00:00Z&endTime=2026-01-01T23:59:59.999Z`, 'endTime', 'endTime must not be before startTime'],
      [`address=${W}&endTime=${iso(NOW - 10 * DAY)}&startTime=${iso(NOW - 9 * DAY)}`, 'endTime', 'endTime must not be before startTime'],
      [
        `address=${W}&startTime=last-week`,
        'startTime',
        'startTime must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)',
      ],
      [
        `address=${W}&endTime=2026-02-30`,
        'endTime',
        'endTime must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)',
      ],
      [`address=${W}&limit=0`, 'limit', 'limit must not be less than 1'],
      [`address=${W}&limit=501`, 'limit', 'limit must not be greater than 500'],
      [`address=${W}&limit=1.5`, 'limit', 'limit must be an integer number'],
      [`address=${W}&coin=BTC`, 'coin', 'property coin should not exist'],
    ])('answers ?%s with a 400 naming the field', async (query, field, message) => {
      const res = await get(`${LIST}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest(field, message));
    });

    it('needs the bearer token', async () => {
      const res = await api.get(`${LIST}?address=${W}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', message: 'Unauthorized' });
    });
  });

  it('documents both routes in the OpenAPI document', async () => {
    const doc = (await api.http.get('/docs-json')).body as {
      paths: Record<
        string,
        { get: { parameters: Array<{ name: string; in: string; required: boolean }>; responses: Record<string, unknown> } }
      >;
    };
    const params = (path: string) => doc.paths[path]!.get.parameters.map((p) => `${p.name}${p.required ? '!' : ''}`).sort();
    expect(params(LIST)).toEqual(['address!', 'endTime', 'limit', 'nextCursor', 'startTime']);
    expect(params(SUMMARY)).toEqual(['address!', 'interval']);
    for (const path of [LIST, SUMMARY])
      expect(Object.keys(doc.paths[path]!.get.responses).sort()).toEqual(['200', '400', '401', '429', '500']);
  });

  describe('GET /api/external/closed-trades/summary', () => {
    it('summarizes all closed trades by default, overall and per coin, every figure recomputed', async () => {
      const res = await get(`${SUMMARY}?address=${mixedCase(W)}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(summaryBody(W, 'all', ofWallet(W)));
      expect(res.body.data.byCoin.map((c: { coin: string }) => c.coin)).toEqual(['BTC', 'DOGE', 'ETH', 'SOL', 'xyz:TSLA']);
      expect((await get(`${SUMMARY}?address=${W}&interval=all`)).body).toEqual(res.body);
    });

    it('gives each record exactly the design fields, and null ratios where nothing divides', async () => {
      const { data } = (await get(`${SUMMARY}?address=${W}`)).body;
      const fields = [
        'tradeCount',
        'winCount',
        'lossCount',
        'winRate',
        'longCount',
        'shortCount',
        'longWinRate',
        'shortWinRate',
        'realizedPnlUsd',
        'grossProfitUsd',
        'grossLossUsd',
        'feesUsd',
        'fundingUsd',
        'volumeUsd',
        'avgSizeUsd',
        'avgDurationMs',
        'medianDurationMs',
        'profitFactor',
        'payoffRatio',
        'expectancyUsd',
        'largestWinUsd',
        'largestLossUsd',
      ];
      expect(Object.keys(data).sort()).toEqual(['address', 'byCoin', 'interval', 'summary']);
      expect(Object.keys(data.summary).sort()).toEqual([...fields].sort());
      for (const coin of data.byCoin) expect(Object.keys(coin).sort()).toEqual(['coin', ...fields].sort());
      // SOL only won: no loss to divide by.
      const sol = data.byCoin.find((c: { coin: string }) => c.coin === 'SOL');
      expect(sol).toMatchObject({ lossCount: 0, grossLossUsd: 0, profitFactor: null, payoffRatio: null, largestLossUsd: null });
      expect(sol.winCount).toBeGreaterThan(0);
      // DOGE only lost (its one partial long): a profit factor of 0, no payoff ratio, no largest win, no short trades.
      expect(data.byCoin.find((c: { coin: string }) => c.coin === 'DOGE')).toEqual({
        coin: 'DOGE',
        tradeCount: 1,
        winCount: 0,
        lossCount: 1,
        winRate: 0,
        longCount: 1,
        shortCount: 0,
        longWinRate: 0,
        shortWinRate: null,
        realizedPnlUsd: -10,
        grossProfitUsd: 0,
        grossLossUsd: -10.1,
        feesUsd: 0.1,
        fundingUsd: 0,
        volumeUsd: 190,
        avgSizeUsd: 0,
        avgDurationMs: 0,
        medianDurationMs: 0,
        profitFactor: 0,
        payoffRatio: null,
        expectancyUsd: -10.1,
        largestWinUsd: null,
        largestLossUsd: -10.1,
      });
    });

    it('counts a trade whose net result is exactly zero as neither win nor loss', async () => {
      const res = await get(`${SUMMARY}?address=${FLAT}`);
      expect(res.body).toEqual(summaryBody(FLAT, 'all', ofWallet(FLAT)));
      expect(res.body.data.summary).toMatchObject({
        tradeCount: 2,
        winCount: 0,
        lossCount: 0,
        winRate: 0,
        grossProfitUsd: 0,
        grossLossUsd: 0,
        profitFactor: null,
        payoffRatio: null,
        expectancyUsd: 0,
        largestWinUsd: null,
        largestLossUsd: null,
      });
    });

    it.each([
      ['365d', 365],
      ['180d', 180],
      ['90d', 90],
      ['30d', 30],
    ])('summarizes the trades closed in the last %s', async (interval, days) => {
      const since = Date.now() - days * DAY;
      const inside = ofWallet(W, (t) => t.closeTime >= since);
      expect(inside.length).toBeLessThan(ofWallet(W).length);
      expect((await get(`${SUMMARY}?address=${W}&interval=${interval}`)).body).toEqual(summaryBody(W, interval, inside));
    });

    it('summarizes the 50 latest closed trades for last50', async () => {
      const latest = ofWallet(W).slice(0, 50);
      expect((await get(`${SUMMARY}?address=${W}&interval=last50`)).body).toEqual(summaryBody(W, 'last50', latest));
      expect((await get(`${SUMMARY}?address=${FLAT}&interval=last50`)).body).toEqual(summaryBody(FLAT, 'last50', ofWallet(FLAT)));
    });

    it('gives zeros and nulls and no coins for a wallet without trades', async () => {
      const res = await get(`${SUMMARY}?address=${NOBODY}&interval=90d`);
      expect(res.body).toEqual({
        status: 'success',
        data: {
          address: NOBODY,
          interval: '90d',
          summary: {
            tradeCount: 0,
            winCount: 0,
            lossCount: 0,
            winRate: null,
            longCount: 0,
            shortCount: 0,
            longWinRate: null,
            shortWinRate: null,
            realizedPnlUsd: 0,
            grossProfitUsd: 0,
            grossLossUsd: 0,
            feesUsd: 0,
            fundingUsd: 0,
            volumeUsd: 0,
            avgSizeUsd: null,
            avgDurationMs: null,
            medianDurationMs: null,
            profitFactor: null,
            payoffRatio: null,
            expectancyUsd: null,
            largestWinUsd: null,
            largestLossUsd: null,
          },
          byCoin: [],
        },
      });
    });

    it.each([
      ['', 'address', 'address is required'],
      ['address=abc', 'address', 'address must be a 0x address of 40 hex digits'],
      [`address=${W}&interval=7d`, 'interval', 'interval must be one of the following values: all, 365d, 180d, 90d, 30d, last50'],
      [`address=${W}&interval=LAST50`, 'interval', 'interval must be one of the following values: all, 365d, 180d, 90d, 30d, last50'],
      [`address=${W}&limit=10`, 'limit', 'property limit should not exist'],
    ])('answers ?%s with a 400 naming the field', async (query, field, message) => {
      const res = await get(`${SUMMARY}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest(field, message));
    });

    it('needs the bearer token', async () => {
      const res = await api.get(`${SUMMARY}?address=${W}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', message: 'Unauthorized' });
    });
  });
});
