import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { hlNodeFilePath, SeededRandom } from '#exchange';

/**
 * A fast generator of `node_fills_by_block` hourly files in hl-node's `--batch-by-block` format, for
 * benchmarks that need millions of fills: the simulator models whole wallets and order books and makes
 * a few thousand fills per second of CPU, this makes a few hundred thousand. Each trade is two fills
 * sharing a tid (taker crossed, maker not), positions are tracked per wallet and coin so
 * `startPosition` and `dir` agree with each other, and TWAP slices, builders and liquidations appear at
 * plausible rates. Nothing else of the exchange is modelled.
 */
export interface NodeFillsSettings {
  /** Fills to write; an odd count is rounded up, as trades come in pairs. */
  fills: number;
  seed: number;
  /** Exchange time of the first block. */
  startTimeMs: number;
  wallets: number;
}

export interface NodeFillsLine {
  line: string;
  blockTimeMs: number;
  blockNumber: number;
  fills: number;
}

export interface GeneratedDirectory {
  dir: string;
  fills: number;
  blocks: number;
  files: number;
  bytes: number;
}

/** Bumped whenever the output changes, so a cached directory of an older generator is not reused. */
const GENERATOR_VERSION = 2;
const FIRST_BLOCK = 1_060_000_000;
const FIRST_OID = 500_000_000_000;
const ZERO_HASH = `0x${'0'.repeat(64)}`;
const BUILDERS = 24;

// Real perp names and HIP-3 `dex:SYMBOL` markets, so coin strings have the lengths and shapes of mainnet's.
const COINS = [
  'BTC',
  'ETH',
  'SOL',
  'HYPE',
  'XRP',
  'DOGE',
  'SUI',
  'ENA',
  'AVAX',
  'LINK',
  'BNB',
  'LTC',
  'ADA',
  'TRX',
  'WIF',
  'kPEPE',
  'FARTCOIN',
  'PUMP',
  'AAVE',
  'TAO',
  'ARB',
  'OP',
  'APT',
  'NEAR',
  'TIA',
  'SEI',
  'INJ',
  'JUP',
  'ONDO',
  'WLD',
  'PENGU',
  'kBONK',
  'TRUMP',
  'VIRTUAL',
  'AI16Z',
  'POPCAT',
  'MKR',
  'UNI',
  'CRV',
  'LDO',
  'PENDLE',
  'ZRO',
  'EIGEN',
  'ETHFI',
  'BERA',
  'IP',
  'KAITO',
  'S',
  'XLM',
  'HBAR',
  'DOT',
  'BCH',
  'FIL',
  'ATOM',
  'ETC',
  'ZEC',
  'XMR',
  'TON',
  'RENDER',
  'FET',
  'GRASS',
  'MOVE',
  'ME',
  'USUAL',
  'HYPER',
  'LAYER',
  'PAXG',
  'SPX',
  'MOODENG',
  'GOAT',
  'BRETT',
  'NOT',
  'STX',
  'ORDI',
  'xyz:TSLA',
  'xyz:NVDA',
  'xyz:AAPL',
  'xyz:GOLD',
  'xyz:XYZ100',
  'xyz:MSFT',
  'xyz:META',
  'xyz:AMZN',
  'flx:SILVER',
  'flx:OIL',
  'vntl:SPACEX',
  'vntl:OPENAI',
  'km:US500',
  'cash:USA500',
];

interface Market {
  index: number;
  coin: string;
  pxDecimals: number;
  szDecimals: number;
  ticks: number;
  /** Trades go mostly to the first markets, as on the exchange. */
  weight: number;
}

/** Where the generated directory for these settings is kept between runs. */
export function cachedDirectoryPath(settings: NodeFillsSettings): string {
  const key = createHash('sha256')
    .update(JSON.stringify({ GENERATOR_VERSION, ...settings }))
    .digest('hex')
    .slice(0, 16);
  return join(tmpdir(), `tidewatch-bench-fills-${key}`);
}

/**
 * The generated directory for the settings, reused when an earlier run completed it (the summary file is
 * written last, so an interrupted generation is started over).
 */
export function cachedNodeFillsDirectory(settings: NodeFillsSettings, progress: (message: string) => void): GeneratedDirectory {
  const dir = cachedDirectoryPath(settings);
  const summaryFile = join(dir, 'generated.json');
  if (existsSync(summaryFile)) {
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as GeneratedDirectory;
    progress(`reusing ${summary.fills} generated fills in ${dir}`);
    return { ...summary, dir };
  }
  rmSync(dir, { recursive: true, force: true });
  const generated = writeNodeFillsDirectory(dir, settings, progress);
  writeFileSync(summaryFile, `${JSON.stringify(generated, null, 2)}\n`);
  return generated;
}

/** Writes the lines to `<dir>/node_fills_by_block/hourly/YYYYMMDD/H`, buffered, one file at a time. */
export function writeNodeFillsDirectory(dir: string, settings: NodeFillsSettings, progress: (message: string) => void): GeneratedDirectory {
  const result: GeneratedDirectory = { dir, fills: 0, blocks: 0, files: 0, bytes: 0 };
  let path = '';
  let fd = -1;
  let buffer: string[] = [];
  let buffered = 0;
  const flush = () => {
    if (buffer.length === 0) return;
    const bytes = Buffer.from(buffer.join(''), 'utf8');
    writeSync(fd, bytes);
    result.bytes += bytes.length;
    buffer = [];
    buffered = 0;
  };
  const step = Math.max(1, Math.round(settings.fills / 10));
  let nextReport = step;
  for (const line of nodeFillsLines(settings)) {
    const linePath = hlNodeFilePath(dir, 'node_fills_by_block', line.blockTimeMs);
    if (linePath !== path) {
      if (fd !== -1) {
        flush();
        closeSync(fd);
      }
      mkdirSync(dirname(linePath), { recursive: true });
      fd = openSync(linePath, 'w');
      path = linePath;
      result.files++;
    }
    buffer.push(line.line, '\n');
    buffered += line.line.length + 1;
    if (buffered >= 4 << 20) flush();
    result.fills += line.fills;
    result.blocks++;
    if (result.fills >= nextReport) {
      progress(`generated ${result.fills} of ${settings.fills} fills (${result.blocks} blocks, ${result.files} hourly files)`);
      nextReport += step;
    }
  }
  if (fd !== -1) {
    flush();
    closeSync(fd);
  }
  return result;
}

/** The block lines, in block order, until `settings.fills` fills are written. */
export function* nodeFillsLines(settings: NodeFillsSettings): Generator<NodeFillsLine> {
  const random = new SeededRandom(settings.seed);
  const wallets = Array.from({ length: settings.wallets }, () => `0x${random.hex(40)}`);
  const builders = Array.from({ length: BUILDERS }, () => `0x${random.hex(40)}`);
  const markets = COINS.map((coin, i) => newMarket(coin, i, random));
  const totalWeight = markets.reduce((sum, m) => sum + m.weight, 0);
  // Signed position in size units per wallet and coin; absent is flat.
  const positions = new Map<number, number>();

  const pickMarket = (): Market => {
    let r = random.next() * totalWeight;
    for (const m of markets) if ((r -= m.weight) < 0) return m;
    return markets[markets.length - 1]!;
  };
  // Activity is concentrated: makers come from the busiest few hundred wallets, takers from a longer tail.
  const pickWallet = (skew: number): number => Math.floor(settings.wallets * random.next() ** skew);

  const target = settings.fills + (settings.fills % 2);
  let written = 0;
  let blockNumber = FIRST_BLOCK;
  let timeMs = settings.startTimeMs;
  let trade = 0;
  let oid = FIRST_OID;
  let twapId = 1_400_000;
  while (written < target) {
    const busy = random.chance(0.02);
    const trades = Math.min((target - written) / 2, busy ? random.int(40, 150) : random.int(1, 20));
    const blockTime = nodeTime(timeMs, random);
    const events: [string, Record<string, unknown>][] = [];
    for (let t = 0; t < trades; t++) {
      const market = pickMarket();
      market.ticks = Math.max(1, market.ticks + Math.round(random.normal() * market.ticks * 0.0004));
      const px = market.ticks / 10 ** market.pxDecimals;
      // Notional in USD: mostly tens to thousands, with a long tail of large trades.
      const notionalUsd = Math.min(2_000_000, 15 / (random.next() + 0.003));
      const units = Math.max(1, Math.floor((notionalUsd / px) * 10 ** market.szDecimals));
      const notional = (market.ticks * units) / 10 ** (market.pxDecimals + market.szDecimals);
      const taker = pickWallet(2);
      let maker = pickWallet(5);
      if (maker === taker) maker = (maker + 1) % settings.wallets;
      const takerSide = random.chance(0.5) ? 'B' : 'A';
      const isTwap = random.chance(0.03);
      const liquidation =
        !isTwap && random.chance(0.004)
          ? {
              liquidatedUser: wallets[taker]!,
              markPx: decimal(Math.max(1, market.ticks + random.int(-3, 3)), market.pxDecimals),
              method: random.chance(0.9) ? 'market' : 'backstop',
            }
          : null;
      const builder = !isTwap && random.chance(0.15) ? builders[Math.floor(builders.length * random.next() ** 2)]! : null;
      const builderFeeMicros = builder === null ? 0 : Math.max(1, Math.round(notional * 100));
      const hash = isTwap ? ZERO_HASH : `0x${random.hex(64)}`;
      const tid = tradeId(++trade);
      const sides = [
        { wallet: taker, side: takerSide, crossed: true, feeMicros: Math.round(notional * 450) + builderFeeMicros },
        {
          wallet: maker,
          side: takerSide === 'B' ? 'A' : 'B',
          crossed: false,
          feeMicros: random.chance(0.2) ? -Math.round(notional * 20) : Math.round(notional * 150),
        },
      ];
      for (const s of sides) {
        const key = s.wallet * 256 + market.index;
        const start = positions.get(key) ?? 0;
        const signed = s.side === 'B' ? units : -units;
        const closing = start !== 0 && Math.sign(start) !== Math.sign(signed) ? Math.min(Math.abs(start), units) : 0;
        const end = start + signed;
        if (end === 0) positions.delete(key);
        else positions.set(key, end);
        const pnlMicros =
          closing === 0
            ? 0
            : Math.round(((market.ticks * closing) / 10 ** (market.pxDecimals + market.szDecimals)) * random.between(-0.03, 0.03) * 1e6);
        const fill: Record<string, unknown> = {
          coin: market.coin,
          px: decimal(market.ticks, market.pxDecimals),
          sz: decimal(units, market.szDecimals),
          side: s.side,
          time: timeMs,
          startPosition: decimal(start, market.szDecimals),
          dir: direction(start, signed),
          closedPnl: decimal(pnlMicros, 6),
          hash,
          oid: (oid += random.int(1, 50)),
          crossed: s.crossed,
          fee: decimal(s.feeMicros, 6),
          tid,
        };
        if (random.chance(0.4)) fill['cloid'] = `0x${random.hex(32)}`;
        if (liquidation !== null) fill['liquidation'] = liquidation;
        fill['feeToken'] = 'USDC';
        fill['twapId'] = isTwap && s.crossed ? (twapId += random.int(1, 20)) : null;
        if (builder !== null && s.crossed) {
          fill['builder'] = builder;
          fill['builderFee'] = decimal(builderFeeMicros, 6);
        }
        events.push([wallets[s.wallet]!, fill]);
      }
    }
    const line = JSON.stringify({
      local_time: nodeTime(timeMs + random.int(150, 600), random),
      block_time: blockTime,
      block_number: blockNumber,
      events,
    });
    yield { line, blockTimeMs: timeMs, blockNumber, fills: events.length };
    written += events.length;
    blockNumber++;
    timeMs += random.int(60, 110);
  }
}

/** Five significant digits of price and a size step worth roughly a dollar or less, like Hyperliquid's perps. */
function newMarket(coin: string, index: number, random: SeededRandom): Market {
  const magnitude = index === 0 ? 4 : index === 1 ? 3 : random.int(-3, 3);
  const pxDecimals = Math.min(6, Math.max(0, 4 - magnitude));
  const szDecimals = Math.min(5, Math.max(0, magnitude + 1));
  return { index, coin, pxDecimals, szDecimals, ticks: random.int(10_000, 99_999), weight: 1 / (index + 2) };
}

/**
 * Hyperliquid's trade ids look random (15-digit numbers in no order of time), so consecutive trades get
 * ids scattered over [0, 2^50): an odd multiplier near 2^50 times the golden ratio, modulo 2^50, is a
 * one-to-one map that lands each next id far from the last, as hard on the (tid, ...) index as real ids.
 */
function tradeId(trade: number): number {
  return Number((BigInt(trade) * 0x278dde6e5fd2bn + 0xbn) % (1n << 50n));
}

function direction(start: number, signed: number): string {
  if (start === 0 || Math.sign(start) === Math.sign(signed)) return signed > 0 ? 'Open Long' : 'Open Short';
  if (Math.abs(signed) <= Math.abs(start)) return start > 0 ? 'Close Long' : 'Close Short';
  return start > 0 ? 'Long > Short' : 'Short > Long';
}

/**
 * An integer count of 10^-dp units written as hl-node writes decimals: trailing zeros dropped but one
 * decimal kept ("4.0", "0.040673"), never an exponent, never "-0.0".
 */
export function decimal(units: number, dp: number): string {
  const negative = units < 0;
  const digits = String(Math.abs(units)).padStart(dp + 1, '0');
  const whole = digits.slice(0, digits.length - dp);
  const fraction = digits.slice(digits.length - dp).replace(/0+$/, '');
  const text = `${whole}.${fraction === '' ? '0' : fraction}`;
  return negative && text !== '0.0' ? `-${text}` : text;
}

/** UTC without a zone and with nanosecond digits, as hl-node writes times. */
function nodeTime(ms: number, random: SeededRandom): string {
  return new Date(ms).toISOString().slice(0, 23) + String(random.int(0, 999_999)).padStart(6, '0');
}
