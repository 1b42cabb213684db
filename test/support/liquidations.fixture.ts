import type { NodeBlock } from '#exchange';
import { address, fillsBlock, wireFill, type WireFill } from '#testing';

// The liquidations suites' fills: liquidation trades (both sides of each) among ordinary trades, as hl-node blocks.

export const FILLS = '/api/external/fills/liquidation';
export const risk = (cohortId: number | string, query = '') => `/api/external/${cohortId}/assets/liquidation-risk${query}`;

export const MIN = 60_000;
export const T = Date.UTC(2026, 5, 28, 8, 0, 0);
export const iso = (ms: number) => new Date(ms).toISOString();

// Wallets, lowercase as every feed writes them; requests may spell them in any case.
export const V1 = address(0x1001);
export const V2 = address(0x1002);
export const V4 = address(0x1004);
export const L1 = address(0x2001);
export const L2 = address(0x2002);
export const V3 = '0xabcdef0000000000000000000000000000001234';
const BULK = [address(0x3001), address(0x3002), address(0x3003)];
export const BUILDER = `0x${'b'.repeat(40)}`;

/** A hl-node fill line's fill, with the `liquidation` object hl-node puts on both sides of a liquidation trade. */
type LiquidationWireFill = WireFill & { liquidation?: { liquidatedUser: string; markPx: string; method: string } };
interface Seed {
  address: string;
  fill: LiquidationWireFill;
}

const liquidation = (liquidatedUser: string, markPx: string) => ({ liquidatedUser, markPx, method: 'market' });
export const hash = (byte: string) => `0x${byte.repeat(32)}`;

// The liquidation trades, each with both sides (one tid and hash, two wallets), and ordinary trades around them.
export const t0 = T;
export const t1 = T + 1_000;
export const t2 = T + MIN;
export const t3 = T + 2 * MIN;
const t4 = T + 3 * MIN;
export const MAIN: Seed[] = [
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
export const ORDINARY: Seed[] = [
  { address: V1, fill: wireFill({ coin: 'BTC', px: '60001', sz: '1', side: 'B', time: t0, tid: 8001 }) },
  { address: L2, fill: wireFill({ coin: 'BTC', px: '60001', sz: '1', side: 'A', time: t0, tid: 8001 }) },
  { address: V2, fill: wireFill({ coin: 'HYPE', px: '40', sz: '10', side: 'B', time: t2, tid: 8002 }) },
  { address: L1, fill: wireFill({ coin: 'HYPE', px: '40', sz: '10', side: 'A', time: t2, tid: 8002 }) },
  { address: L1, fill: wireFill({ coin: 'BTC', px: '61010', sz: '3', side: 'B', time: t4 + 1, tid: 8003 }) },
];

// 510 older SOL liquidations, one side each, a minute apart from three days before: enough for more than one full page.
export const BULK_SEEDS: Seed[] = Array.from({ length: 510 }, (_, i) => {
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

export const LIQUIDATIONS = [...MAIN, ...BULK_SEEDS];

/** Newest first; ties by tid, then address, descending (byte order, as the stored text collates). */
const newestFirst = (a: Seed, b: Seed) =>
  b.fill.time - a.fill.time || b.fill.tid - a.fill.tid || (a.address < b.address ? 1 : a.address > b.address ? -1 : 0);

/** The response object of a seeded fill, from its wire values. */
export function expectedFill({ address: wallet, fill }: Seed) {
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

export const expectedList = (keep: (s: Seed) => boolean) => LIQUIDATIONS.filter(keep).sort(newestFirst).map(expectedFill);

/** One block per millisecond, in time order, as hl-node writes them. */
export function blocksOf(seeds: Seed[]): NodeBlock[] {
  const byTime = new Map<number, Array<[string, WireFill]>>();
  for (const s of [...seeds].sort((a, b) => a.fill.time - b.fill.time))
    byTime.set(s.fill.time, [...(byTime.get(s.fill.time) ?? []), [s.address, s.fill]]);
  return [...byTime].map(([time, events], i) => fillsBlock(5_000_000 + i, time, events));
}

export const badRequest = (errors: Array<{ field: string; message: string }>) => ({
  status: 'error',
  message: `Invalid parameters: ${[...new Set(errors.map((e) => e.field))].join(', ')}`,
  errors,
});
