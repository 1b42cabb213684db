import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import type { NodeBlock } from '#exchange';
import { ExchangeFactsWriter, MarketStateWriter } from '#market';
import { address, exchangeState, feed, fillsBlock, positionState, startedWriter, walletState, wireFill, type WireFill } from '#testing';
import { ApiHarness } from '../support/api-harness.js';

const FILLS = '/api/external/fills/liquidation';
const risk = (segmentId: number | string, query = '') => `/api/external/${segmentId}/assets/liquidation-risk${query}`;

const MIN = 60_000;
const T = Date.UTC(2026, 5, 28, 8, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

// Wallets, lowercase as every feed writes them; requests may spell them in any case.
const V1 = address(0x1001);
const V2 = address(0x1002);
const V4 = address(0x1004);
const L1 = address(0x2001);
const L2 = address(0x2002);
const V3 = '0xabcdef0000000000000000000000000000001234';
const BULK = [address(0x3001), address(0x3002), address(0x3003)];
const BUILDER = `0x${'b'.repeat(40)}`;

/** A hl-node fill line's fill, with the `liquidation` object hl-node puts on both sides of a liquidation trade. */
type LiquidationWireFill = WireFill & { liquidation?: { liquidatedUser: string; markPx: string; method: string } };
interface Seed {
  address: string;
  fill: LiquidationWireFill;
}

const liquidation = (liquidatedUser: string, markPx: string) => ({ liquidatedUser, markPx, method: 'market' });
const hash = (byte: string) => `0x${byte.repeat(32)}`;

// The liquidation trades, each with both sides (one tid and hash, two wallets), and ordinary trades around them.
const t0 = T;
const t1 = T + 1_000;
const t2 = T + MIN;
const t3 = T + 2 * MIN;
const t4 = T + 3 * MIN;
const MAIN: Seed[] = [
  // A: BTC long of V1 liquidated into L1.
  {
    address: V1,
    fill: wireFill({
      coin: 'BTC',
      px: '60000.5',
      sz: '0.5',
      side: 'A',
      time: t0,
      tid: 9001,
      oid: 71001,
      startPosition: '0.5',
      dir: 'Close Long',
      closedPnl: '-1234.56',
      fee: '12.5',
      hash: hash('a1'),
      liquidation: liquidation(V1, '60010.1'),
    } as LiquidationWireFill),
  },
  {
    address: L1,
    fill: wireFill({
      coin: 'BTC',
      px: '60000.5',
      sz: '0.5',
      side: 'B',
      time: t0,
      tid: 9001,
      oid: 72001,
      startPosition: '-2',
      dir: 'Close Short',
      closedPnl: '3.2',
      fee: '-0.3',
      crossed: false,
      hash: hash('a1'),
      liquidation: liquidation(V1, '60010.1'),
    } as LiquidationWireFill),
  },
  // B, C and G in one millisecond: tid decides, as a number (100000 before 9003). V3's side went through a builder.
  {
    address: V3,
    fill: wireFill({
      coin: 'ETH',
      px: '3100',
      sz: '2',
      side: 'B',
      time: t1,
      tid: 9002,
      oid: 71002,
      startPosition: '-2',
      dir: 'Close Short',
      closedPnl: '-410',
      fee: '3.1',
      builder: BUILDER,
      builderFee: '0.05',
      hash: hash('b2'),
      liquidation: liquidation(V3, '3101'),
    } as LiquidationWireFill),
  },
  {
    address: L1,
    fill: wireFill({
      coin: 'ETH',
      px: '3100',
      sz: '2',
      side: 'A',
      time: t1,
      tid: 9002,
      oid: 72002,
      startPosition: '5',
      dir: 'Close Long',
      closedPnl: '20',
      fee: '-0.1',
      crossed: false,
      hash: hash('b2'),
      liquidation: liquidation(V3, '3101'),
    } as LiquidationWireFill),
  },
  {
    address: V2,
    fill: wireFill({
      coin: 'ETH',
      px: '3100.5',
      sz: '1',
      side: 'B',
      time: t1,
      tid: 9003,
      oid: 71003,
      startPosition: '-1',
      dir: 'Close Short',
      closedPnl: '-99.5',
      fee: '1.55',
      hash: hash('c3'),
      liquidation: liquidation(V2, '3101'),
    } as LiquidationWireFill),
  },
  {
    address: L2,
    fill: wireFill({
      coin: 'ETH',
      px: '3100.5',
      sz: '1',
      side: 'A',
      time: t1,
      tid: 9003,
      oid: 72003,
      startPosition: '0',
      dir: 'Open Short',
      closedPnl: '0',
      fee: '0.5',
      hash: hash('c3'),
      liquidation: liquidation(V2, '3101'),
    } as LiquidationWireFill),
  },
  // G: only the victim's side was recorded.
  {
    address: V4,
    fill: wireFill({
      coin: 'BTC',
      px: '60100',
      sz: '0.3',
      side: 'B',
      time: t1,
      tid: 100_000,
      oid: 71007,
      startPosition: '-0.3',
      dir: 'Close Short',
      closedPnl: '-30',
      fee: '9.03',
      hash: hash('a7'),
      liquidation: liquidation(V4, '60101'),
    } as LiquidationWireFill),
  },
  // D: a HIP-3 market, fee in another token.
  {
    address: V1,
    fill: wireFill({
      coin: 'xyz:TSLA',
      px: '250.25',
      sz: '4',
      side: 'A',
      time: t2,
      tid: 9004,
      oid: 71004,
      startPosition: '4',
      dir: 'Close Long',
      closedPnl: '-80',
      fee: '0.5',
      feeToken: 'USDH',
      hash: hash('d4'),
      liquidation: liquidation(V1, '250.2'),
    } as LiquidationWireFill),
  },
  {
    address: L2,
    fill: wireFill({
      coin: 'xyz:TSLA',
      px: '250.25',
      sz: '4',
      side: 'B',
      time: t2,
      tid: 9004,
      oid: 72004,
      startPosition: '0',
      dir: 'Open Long',
      closedPnl: '0',
      fee: '0.2',
      feeToken: 'USDH',
      hash: hash('d4'),
      liquidation: liquidation(V1, '250.2'),
    } as LiquidationWireFill),
  },
  // E: the victim's line carries no fee token.
  {
    address: V2,
    fill: {
      ...wireFill({
        coin: 'BTC',
        px: '60500',
        sz: '0.1',
        side: 'B',
        time: t3,
        tid: 9005,
        oid: 71005,
        startPosition: '-0.1',
        dir: 'Close Short',
        closedPnl: '-50',
        fee: '3.025',
        hash: hash('e5'),
        liquidation: liquidation(V2, '60510'),
      } as LiquidationWireFill),
      feeToken: undefined,
    },
  },
  {
    address: L1,
    fill: wireFill({
      coin: 'BTC',
      px: '60500',
      sz: '0.1',
      side: 'A',
      time: t3,
      tid: 9005,
      oid: 72005,
      startPosition: '1',
      dir: 'Close Long',
      closedPnl: '5',
      fee: '-0.01',
      crossed: false,
      hash: hash('e5'),
      liquidation: liquidation(V2, '60510'),
    } as LiquidationWireFill),
  },
  // F: the newest liquidation.
  {
    address: V1,
    fill: wireFill({
      coin: 'BTC',
      px: '61000.5',
      sz: '0.25',
      side: 'A',
      time: t4,
      tid: 9006,
      oid: 71006,
      startPosition: '0.25',
      dir: 'Close Long',
      closedPnl: '-250.125',
      fee: '7.625',
      hash: hash('f6'),
      liquidation: liquidation(V1, '60990.1'),
    } as LiquidationWireFill),
  },
  {
    address: L2,
    fill: wireFill({
      coin: 'BTC',
      px: '61000.5',
      sz: '0.25',
      side: 'B',
      time: t4,
      tid: 9006,
      oid: 72006,
      startPosition: '-1.5',
      dir: 'Close Short',
      closedPnl: '12.5',
      fee: '-0.01',
      crossed: false,
      builder: BUILDER,
      builderFee: '0.1',
      hash: hash('f6'),
      liquidation: liquidation(V1, '60990.1'),
    } as LiquidationWireFill),
  },
];

// Ordinary trades in the same markets and milliseconds (and the newest fill of all): never listed.
const ORDINARY: Seed[] = [
  { address: V1, fill: wireFill({ coin: 'BTC', px: '60001', sz: '1', side: 'B', time: t0, tid: 8001 }) },
  { address: L2, fill: wireFill({ coin: 'BTC', px: '60001', sz: '1', side: 'A', time: t0, tid: 8001 }) },
  { address: V2, fill: wireFill({ coin: 'HYPE', px: '40', sz: '10', side: 'B', time: t2, tid: 8002 }) },
  { address: L1, fill: wireFill({ coin: 'HYPE', px: '40', sz: '10', side: 'A', time: t2, tid: 8002 }) },
  { address: L1, fill: wireFill({ coin: 'BTC', px: '61010', sz: '3', side: 'B', time: t4 + 1, tid: 8003 }) },
];

// 510 older SOL liquidations, one side each, a minute apart from three days before: enough for more than one full page.
const BULK_SEEDS: Seed[] = Array.from({ length: 510 }, (_, i) => {
  const wallet = BULK[i % 3]!;
  const side = i % 2 === 0 ? 'A' : 'B';
  return {
    address: wallet,
    fill: wireFill({
      coin: 'SOL',
      px: `${140 + (i % 10)}.5`,
      sz: '3',
      side,
      time: T - 3 * 24 * 60 * MIN + i * MIN,
      tid: 20_000 + i,
      startPosition: side === 'A' ? '3' : '-3',
      dir: side === 'A' ? 'Close Long' : 'Close Short',
      closedPnl: '-12',
      fee: '0.2',
      liquidation: liquidation(wallet, `${140 + (i % 10)}.4`),
    } as LiquidationWireFill),
  };
});

const LIQUIDATIONS = [...MAIN, ...BULK_SEEDS];

/** Newest first; ties by tid, then address, descending (byte order, as the stored text collates). */
const newestFirst = (a: Seed, b: Seed) =>
  b.fill.time - a.fill.time || b.fill.tid - a.fill.tid || (a.address < b.address ? 1 : a.address > b.address ? -1 : 0);

/** The response object of a seeded fill, from its wire values. */
function expectedFill({ address: wallet, fill }: Seed) {
  return {
    oid: fill.oid,
    address: wallet,
    coin: fill.coin,
    fullCoinName: fill.coin,
    fillType: 'perp',
    px: Number(fill.px),
    sz: Number(fill.sz),
    side: fill.side,
    time: iso(fill.time),
    startPosition: Number(fill.startPosition),
    dir: fill.dir,
    closedPnl: Number(fill.closedPnl),
    hash: fill.hash,
    crossed: fill.crossed,
    fee: Number(fill.fee),
    builderFee: fill.builderFee === undefined ? 0 : Number(fill.builderFee),
    tid: fill.tid,
    feeToken: fill.feeToken ?? '',
    builder: fill.builder ?? '',
    liquidatedUser: fill.liquidation!.liquidatedUser,
    liquidationMarkPx: Number(fill.liquidation!.markPx),
    liquidationMethod: 'market',
  };
}

const expectedList = (keep: (s: Seed) => boolean) => LIQUIDATIONS.filter(keep).sort(newestFirst).map(expectedFill);

/** One block per millisecond, in time order, as hl-node writes them. */
function blocksOf(seeds: Seed[]): NodeBlock[] {
  const byTime = new Map<number, Array<[string, WireFill]>>();
  for (const s of [...seeds].sort((a, b) => a.fill.time - b.fill.time))
    byTime.set(s.fill.time, [...(byTime.get(s.fill.time) ?? []), [s.address, s.fill]]);
  return [...byTime].map(([time, events], i) => fillsBlock(5_000_000 + i, time, events));
}

const badRequest = (errors: Array<{ field: string; message: string }>) => ({
  status: 'error',
  message: `Invalid parameters: ${[...new Set(errors.map((e) => e.field))].join(', ')}`,
  errors,
});

describe('Liquidations', () => {
  let api: ApiHarness;
  let token: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    api = await ApiHarness.start();
    ({ token } = await api.createConsumer({ name: 'liquidations-suite' }));
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
    const facts = await startedWriter(dataSource, ExchangeFactsWriter);
    await facts.writeBlocks(feed(blocksOf([...MAIN, ...ORDINARY, ...BULK_SEEDS])), 'node');
    await seedPositions(await startedWriter(dataSource, MarketStateWriter));
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await api?.close();
  });

  const get = (path: string) => api.get(path, token);

  describe('GET /api/external/fills/liquidation', () => {
    it('answers the newest page with exactly the contract fields and values', async () => {
      const res = await get(`${FILLS}?limit=3`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        fills: [
          {
            oid: 72006,
            address: L2,
            coin: 'BTC',
            fullCoinName: 'BTC',
            fillType: 'perp',
            px: 61000.5,
            sz: 0.25,
            side: 'B',
            time: '2026-06-28T08:03:00.000Z',
            startPosition: -1.5,
            dir: 'Close Short',
            closedPnl: 12.5,
            hash: hash('f6'),
            crossed: false,
            fee: -0.01,
            builderFee: 0.1,
            tid: 9006,
            feeToken: 'USDC',
            builder: BUILDER,
            liquidatedUser: V1,
            liquidationMarkPx: 60990.1,
            liquidationMethod: 'market',
          },
          {
            oid: 71006,
            address: V1,
            coin: 'BTC',
            fullCoinName: 'BTC',
            fillType: 'perp',
            px: 61000.5,
            sz: 0.25,
            side: 'A',
            time: '2026-06-28T08:03:00.000Z',
            startPosition: 0.25,
            dir: 'Close Long',
            closedPnl: -250.125,
            hash: hash('f6'),
            crossed: true,
            fee: 7.625,
            builderFee: 0,
            tid: 9006,
            feeToken: 'USDC',
            builder: '',
            liquidatedUser: V1,
            liquidationMarkPx: 60990.1,
            liquidationMethod: 'market',
          },
          {
            oid: 72005,
            address: L1,
            coin: 'BTC',
            fullCoinName: 'BTC',
            fillType: 'perp',
            px: 60500,
            sz: 0.1,
            side: 'A',
            time: '2026-06-28T08:02:00.000Z',
            startPosition: 1,
            dir: 'Close Long',
            closedPnl: 5,
            hash: hash('e5'),
            crossed: false,
            fee: -0.01,
            builderFee: 0,
            tid: 9005,
            feeToken: 'USDC',
            builder: '',
            liquidatedUser: V2,
            liquidationMarkPx: 60510,
            liquidationMethod: 'market',
          },
        ],
        nextCursor: expect.stringMatching(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/),
      });
    });

    it('gives the stored fee token as it is, and an empty one when the line had none', async () => {
      const res = await get(`${FILLS}?limit=4&address=${V2}`);
      expect(res.body.fills.map((f: { tid: number; feeToken: string }) => [f.tid, f.feeToken])).toEqual([
        [9005, ''],
        [9003, 'USDC'],
      ]);
      const tsla = await get(`${FILLS}?coin=xyz:tsla`);
      expect(tsla.body.fills.map((f: { feeToken: string }) => f.feeToken)).toEqual(['USDH', 'USDH']);
    });

    it('is sent as the JSON Postgres rendered, with the JSON content type and every number a JSON number', async () => {
      const res = await get(`${FILLS}?limit=2&address=${V3}`);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(res.text)).toEqual({ fills: [expectedFill(MAIN[2]!)], nextCursor: null });
      expect(res.text).toMatch(/"px":3100,"sz":2,/);
    });

    it('walks every liquidation fill exactly once, newest first, with a small limit', async () => {
      const seen: unknown[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await get(`${FILLS}?limit=7${cursor ? `&nextCursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status).toBe(200);
        expect(res.body.fills.length).toBeLessThanOrEqual(7);
        seen.push(...res.body.fills);
        cursor = res.body.nextCursor;
        pages++;
      } while (cursor !== null);
      expect(pages).toBe(Math.ceil(LIQUIDATIONS.length / 7));
      expect(seen).toHaveLength(523);
      expect(seen).toEqual(expectedList(() => true));
      const keys = seen.map((f) => `${(f as { tid: number }).tid}/${(f as { address: string }).address}`);
      expect(new Set(keys).size).toBe(523);
      // One millisecond: tids in numeric order (as text 9003 would come before 100000), then addresses.
      expect(keys.slice(6, 11)).toEqual([`100000/${V4}`, `9003/${L2}`, `9003/${V2}`, `9002/${V3}`, `9002/${L1}`]);
    });

    it('walks a filtered list one fill a page, the cursor keeping the filters of each request', async () => {
      const seen: unknown[] = [];
      let cursor: string | null = null;
      do {
        const res = await get(`${FILLS}?limit=1&coin=ETH${cursor ? `&nextCursor=${encodeURIComponent(cursor)}` : ''}`);
        seen.push(...res.body.fills);
        cursor = res.body.nextCursor;
      } while (cursor !== null);
      // Same millisecond: tid 9003 before 9002; same tid: address descending.
      expect(seen.map((f) => [(f as { tid: number }).tid, (f as { address: string }).address])).toEqual([
        [9003, L2],
        [9003, V2],
        [9002, V3],
        [9002, L1],
      ]);
      expect(seen).toEqual(expectedList((s) => s.fill.coin === 'ETH'));
    });

    it('defaults to 500 fills a page, at most 500', async () => {
      const all = expectedList(() => true);
      const first = await get(FILLS);
      expect(first.status).toBe(200);
      expect(first.body.fills).toEqual(all.slice(0, 500));
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const rest = await get(`${FILLS}?nextCursor=${encodeURIComponent(first.body.nextCursor)}`);
      expect(rest.body).toEqual({ fills: all.slice(500), nextCursor: null });
      expect((await get(`${FILLS}?limit=500`)).body).toEqual(first.body);
      expect((await get(`${FILLS}?limit=1`)).body.fills).toEqual(all.slice(0, 1));
    });

    it('filters by coin in any case, HIP-3 markets included', async () => {
      expect((await get(`${FILLS}?coin=btc`)).body).toEqual({ fills: expectedList((s) => s.fill.coin === 'BTC'), nextCursor: null });
      expect((await get(`${FILLS}?coin=XYZ:tsla`)).body).toEqual({
        fills: expectedList((s) => s.fill.coin === 'xyz:TSLA'),
        nextCursor: null,
      });
      const sol = await get(`${FILLS}?coin=Sol&limit=500`);
      expect(sol.body.fills).toEqual(expectedList((s) => s.fill.coin === 'SOL').slice(0, 500));
      expect(sol.body.nextCursor).toEqual(expect.any(String));
    });

    it('answers a known market without liquidations with an empty page, and an unknown one with a 404', async () => {
      expect((await get(`${FILLS}?coin=hype`)).body).toEqual({ fills: [], nextCursor: null });
      const res = await get(`${FILLS}?coin=NOPE`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', message: 'Unknown coin: NOPE' });
    });

    it("filters by the fill's wallet, spelt in any case", async () => {
      const l1 = await get(`${FILLS}?address=${L1.toUpperCase().replace('0X', '0x')}`);
      expect(l1.body).toEqual({ fills: expectedList((s) => s.address === L1), nextCursor: null });
      expect(l1.body.fills.map((f: { liquidatedUser: string }) => f.liquidatedUser)).toEqual([V2, V3, V1]);
      for (const spelling of [V3, '0xAbCdEf0000000000000000000000000000001234', `0x${V3.slice(2).toUpperCase()}`, `0X${V3.slice(2)}`]) {
        expect((await get(`${FILLS}?address=${spelling}`)).body).toEqual({ fills: [expectedFill(MAIN[2]!)], nextCursor: null });
      }
      expect((await get(`${FILLS}?address=${address(0x9999)}`)).body).toEqual({ fills: [], nextCursor: null });
    });

    it('filters by side', async () => {
      const res = await get(`${FILLS}?side=B&coin=BTC`);
      expect(res.body).toEqual({ fills: expectedList((s) => s.fill.side === 'B' && s.fill.coin === 'BTC'), nextCursor: null });
      expect(res.body.fills.map((f: { tid: number }) => f.tid)).toEqual([9006, 9005, 100000, 9001]);
      const sells = await get(`${FILLS}?side=A&limit=500`);
      expect(sells.body.fills).toEqual(expectedList((s) => s.fill.side === 'A'));
    });

    it('includes both window edges, and start alone runs to the newest fill', async () => {
      const window = await get(`${FILLS}?start=${iso(t2)}&end=${iso(t3)}`);
      expect(window.body).toEqual({ fills: expectedList((s) => s.fill.time >= t2 && s.fill.time <= t3), nextCursor: null });
      expect(window.body.fills.map((f: { tid: number }) => f.tid)).toEqual([9005, 9005, 9004, 9004]);
      const inside = await get(`${FILLS}?start=${iso(t2 + 1)}&end=${iso(t3 - 1)}`);
      expect(inside.body).toEqual({ fills: [], nextCursor: null });
      const fromT1 = await get(`${FILLS}?start=${iso(t1)}`);
      expect(fromT1.body).toEqual({ fills: expectedList((s) => s.fill.time >= t1), nextCursor: null });
      expect(fromT1.body.fills).toHaveLength(11);
      // An offset names the same instant: 10:01 at +02:00 is 08:01 UTC.
      const offset = await get(
        `${FILLS}?start=${encodeURIComponent('2026-06-28T10:01:00+02:00')}&end=${encodeURIComponent('2026-06-28T10:02:00.000+02:00')}`,
      );
      expect(offset.body).toEqual(window.body);
      // A time without a zone is UTC.
      const zoneless = await get(`${FILLS}?start=2026-06-28T08:01:00&end=2026-06-28T08:02:00.000`);
      expect(zoneless.body).toEqual(window.body);
    });

    it('combines every filter', async () => {
      const res = await get(`${FILLS}?coin=eth&address=${L1.toUpperCase().replace('0X', '0x')}&side=A&start=${iso(t0)}&end=${iso(t1)}`);
      expect(res.body).toEqual({ fills: [expectedFill(MAIN[3]!)], nextCursor: null });
      const none = await get(`${FILLS}?coin=eth&address=${L1}&side=B&start=${iso(t0)}&end=${iso(t1)}`);
      expect(none.body).toEqual({ fills: [], nextCursor: null });
      const v1 = await get(`${FILLS}?address=${V1}&side=A&start=${iso(t0)}&limit=2`);
      expect(v1.body.fills).toEqual(expectedList((s) => s.address === V1).slice(0, 2));
      const next = await get(`${FILLS}?address=${V1}&side=A&start=${iso(t0)}&limit=2&nextCursor=${encodeURIComponent(v1.body.nextCursor)}`);
      expect(next.body).toEqual({ fills: expectedList((s) => s.address === V1).slice(2), nextCursor: null });
    });

    it('accepts a window of exactly 3 calendar months, and not a millisecond more', async () => {
      // 31 January + 3 months is 30 April (the last day of the month).
      expect((await get(`${FILLS}?start=2026-01-31T00:00:00Z&end=2026-04-30T00:00:00Z`)).body).toEqual({ fills: [], nextCursor: null });
      const over = await get(`${FILLS}?start=2026-01-31T00:00:00Z&end=2026-04-30T00:00:00.001Z`);
      expect(over.status).toBe(400);
      expect(over.body).toEqual(badRequest([{ field: 'end', message: 'end must be at most 3 months after start' }]));
      const june = await get(`${FILLS}?start=${iso(T - 3 * 24 * 60 * MIN)}&end=2026-09-25T08:00:00Z`);
      expect(june.status).toBe(200);
      expect((await get(`${FILLS}?start=2026-06-25T08:00:00Z&end=2026-09-25T08:00:00.001Z`)).status).toBe(400);
    });

    it.each([
      ['end=2026-06-28T08:00:00Z', [{ field: 'end', message: 'end is only accepted together with start' }]],
      ['start=2026-06-28T08:00:00Z&end=2026-06-28T07:59:59.999Z', [{ field: 'end', message: 'end must be later than start' }]],
      ['start=2026-06-28T08:00:00Z&end=2026-06-28T08:00:00Z', [{ field: 'end', message: 'end must be later than start' }]],
      ['start=2026-01-01T00:00:00Z&end=2026-06-28T08:00:00Z', [{ field: 'end', message: 'end must be at most 3 months after start' }]],
      [
        'start=yesterday',
        [{ field: 'start', message: 'start must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)' }],
      ],
      [
        'start=2026-06-28 08:00:00Z',
        [{ field: 'start', message: 'start must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)' }],
      ],
      [
        'start=2026-02-30T08:00:00Z',
        [{ field: 'start', message: 'start must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)' }],
      ],
      [
        'start=2026-06-28T08:00:00Z&end=06/29/2026',
        [{ field: 'end', message: 'end must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)' }],
      ],
      ['limit=0', [{ field: 'limit', message: 'limit must not be less than 1' }]],
      ['limit=501', [{ field: 'limit', message: 'limit must not be greater than 500' }]],
      ['limit=abc', [{ field: 'limit', message: 'limit must be an integer number' }]],
      ['limit=2.5', [{ field: 'limit', message: 'limit must be an integer number' }]],
      ['address=0x1234', [{ field: 'address', message: 'address must be a 0x address of 40 hex digits' }]],
      [`address=${V1.slice(0, -1)}g`, [{ field: 'address', message: 'address must be a 0x address of 40 hex digits' }]],
      ['side=C', [{ field: 'side', message: 'side must be one of the following values: A, B' }]],
      ['side=a', [{ field: 'side', message: 'side must be one of the following values: A, B' }]],
      ['coin=', [{ field: 'coin', message: 'coin should not be empty' }]],
      ['segmentId=2', [{ field: 'segmentId', message: 'property segmentId should not exist' }]],
    ])('answers ?%s with a 400 naming the field', async (query, errors) => {
      const res = await get(`${FILLS}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest(errors));
    });

    it('refuses an altered, truncated or foreign cursor with a 400 naming nextCursor', async () => {
      const { nextCursor } = (await get(`${FILLS}?limit=2`)).body as { nextCursor: string };
      const [payload, signature] = nextCursor.split('.') as [string, string];
      const keys = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [number, string, string];
      const altered = `${Buffer.from(JSON.stringify([keys[0] - 1, keys[1], keys[2]])).toString('base64url')}.${signature}`;
      for (const [cursor, reason] of [
        [altered, 'signature does not match'],
        [`${payload}.${signature.slice(0, -2)}`, 'signature does not match'],
        ['not-a-cursor', 'malformed'],
      ] as const) {
        const res = await get(`${FILLS}?limit=2&nextCursor=${encodeURIComponent(cursor)}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          badRequest([{ field: 'nextCursor', message: `nextCursor is not a cursor this list issued (${reason}); start again without it` }]),
        );
      }
      // The genuine cursor still reads on.
      expect((await get(`${FILLS}?limit=2&nextCursor=${encodeURIComponent(nextCursor)}`)).body.fills).toEqual(
        expectedList(() => true).slice(2, 4),
      );
    });

    it('needs the bearer token', async () => {
      const res = await api.get(FILLS);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', message: 'Unauthorized' });
    });
  });

  describe('GET /api/external/{segmentId}/assets/liquidation-risk', () => {
    it('sums the open positions of the cohort per coin: at risk from 75 % of the way to liquidation', async () => {
      const res = await get(risk(2));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        totalCount: 5,
        items: [
          { coin: 'SOL', totalValue: 500, riskValue: 0, percentRisk: 0 },
          // Equal totals: coin ascending.
          { coin: 'AVAX', totalValue: 420, riskValue: 420, percentRisk: 100 },
          { coin: 'DOGE', totalValue: 420, riskValue: 0, percentRisk: 0 },
          { coin: 'ETH', totalValue: 392.498, riskValue: 277.5, percentRisk: percent('277.5', '392.498') },
          { coin: 'BTC', totalValue: 294.001, riskValue: 224, percentRisk: percent('224', '294.001') },
        ],
      });
      expect(res.body.items[3].percentRisk).toBe(70.7009972);
      expect(res.body.items[4].percentRisk).toBe(76.19021704);
    });

    it('reads pnl cohorts by the pnl cohort of each wallet, and size cohorts by the size cohort', async () => {
      expect((await get(risk(11))).body).toEqual({
        totalCount: 2,
        items: [
          { coin: 'BTC', totalValue: 1890.001, riskValue: 1820, percentRisk: percent('1820', '1890.001') },
          { coin: 'DOGE', totalValue: 420, riskValue: 0, percentRisk: 0 },
        ],
      });
      // W6 moved from Dolphin to Fish at the last update: it counts where it is now.
      expect((await get(risk(1))).body).toEqual({
        totalCount: 1,
        items: [{ coin: 'BTC', totalValue: 1820, riskValue: 1820, percentRisk: 100 }],
      });
      // W2's HYPE position closed at the last update.
      expect((await get(risk(13))).body).toEqual({
        totalCount: 3,
        items: [
          { coin: 'AVAX', totalValue: 420, riskValue: 420, percentRisk: 100 },
          { coin: 'ETH', totalValue: 277.5, riskValue: 277.5, percentRisk: 100 },
          { coin: 'BTC', totalValue: 54, riskValue: 54, percentRisk: 100 },
        ],
      });
    });

    it('gives a percentage of 0 for a coin whose total value is 0', async () => {
      const zero = { totalCount: 1, items: [{ coin: 'ETH', totalValue: 0, riskValue: 0, percentRisk: 0 }] };
      expect((await get(risk(5))).body).toEqual(zero);
      expect((await get(risk(9))).body).toEqual(zero);
    });

    it('pages with offset and limit, totalCount counting every coin', async () => {
      expect((await get(risk(2, '?offset=1&limit=2'))).body).toEqual({
        totalCount: 5,
        items: [
          { coin: 'AVAX', totalValue: 420, riskValue: 420, percentRisk: 100 },
          { coin: 'DOGE', totalValue: 420, riskValue: 0, percentRisk: 0 },
        ],
      });
      expect((await get(risk(2, '?limit=1'))).body.items.map((i: { coin: string }) => i.coin)).toEqual(['SOL']);
      expect((await get(risk(2, '?offset=4&limit=500'))).body.items.map((i: { coin: string }) => i.coin)).toEqual(['BTC']);
      expect((await get(risk(2, '?offset=5'))).body).toEqual({ totalCount: 5, items: [] });
      expect((await get(risk(2, '?offset=1000'))).body).toEqual({ totalCount: 5, items: [] });
    });

    it('answers a cohort without wallets, or whose wallets hold no open position, with no items', async () => {
      expect((await get(risk(7))).body).toEqual({ totalCount: 0, items: [] });
      expect((await get(risk(8))).body).toEqual({ totalCount: 0, items: [] });
      expect((await get(risk(8, '?offset=3&limit=1'))).body).toEqual({ totalCount: 0, items: [] });
    });

    it.each([17, 0, -1, 99])('answers cohort %s with a 404 naming it', async (segmentId) => {
      const res = await get(risk(segmentId));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', message: `Unknown segmentId: ${segmentId} (cohorts are 1 to 16)` });
    });

    it.each([
      ['abc', '', [{ field: 'segmentId', message: 'segmentId must be an integer number' }]],
      ['1.5', '', [{ field: 'segmentId', message: 'segmentId must be an integer number' }]],
      ['0x2', '', [{ field: 'segmentId', message: 'segmentId must be an integer number' }]],
      ['2', '?limit=0', [{ field: 'limit', message: 'limit must not be less than 1' }]],
      ['2', '?limit=501', [{ field: 'limit', message: 'limit must not be greater than 500' }]],
      ['2', '?limit=abc', [{ field: 'limit', message: 'limit must be an integer number' }]],
      ['2', '?offset=-1', [{ field: 'offset', message: 'offset must not be less than 0' }]],
      ['2', '?offset=x', [{ field: 'offset', message: 'offset must be an integer number' }]],
      ['2', '?coin=BTC', [{ field: 'coin', message: 'property coin should not exist' }]],
    ])('answers /%s/assets/liquidation-risk%s with a 400 naming the field', async (segmentId, query, errors) => {
      const res = await get(risk(segmentId, query));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest(errors));
    });
  });

  it('documents both routes in the OpenAPI document', async () => {
    const doc = (await api.http.get('/docs-json')).body as { paths: Record<string, { get?: { parameters?: Array<{ name: string }> } }> };
    expect(doc.paths[FILLS]?.get?.parameters?.map((p) => p.name).sort()).toEqual([
      'address',
      'coin',
      'end',
      'limit',
      'nextCursor',
      'side',
      'start',
    ]);
    expect(doc.paths['/api/external/{segmentId}/assets/liquidation-risk']?.get?.parameters?.map((p) => p.name).sort()).toEqual([
      'limit',
      'offset',
      'segmentId',
    ]);
  });
});

/** riskValue / totalValue * 100 to 8 decimal places, exactly. */
function percent(riskValue: string, totalValue: string): number {
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
