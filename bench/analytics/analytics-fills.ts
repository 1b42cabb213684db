import { SeededRandom } from '#exchange';
import { decimal } from '../fills/node-fills.generator.js';
import type { AnalyticsDataset } from './analytics-dataset.js';

/**
 * The fills of the history as COPY text in FillsRepository's column order, as fact-rows.ts maps a
 * node block: trades of two fills sharing a tid (taker crossed, maker not), positions tracked per
 * wallet and coin so that start_position and dir agree, TWAP slices, builders, and about 2 % of the
 * fills from liquidations. A liquidation closes the whole position of a taker that holds one; both of
 * its fills carry the liquidation and only the liquidated wallet's is the liquidated side. A tenth of
 * them are backstop liquidations taken by one liquidator wallet, and market makers (a few busy wallets)
 * take most of the rest, so some wallets have thousands of liquidation fills, as on the exchange.
 */

export const FILL_COLUMNS =
  'address, coin, px, sz, side, time, start_position, dir, closed_pnl, hash, oid, crossed, fee, fee_token, tid, cloid, twap_id, builder, builder_fee, ' +
  'liquidated_user, liquidation_mark_px, liquidation_method, is_liquidated_side, block_number, block_time';

/** Share of the trades that are liquidations (each gives two liquidation fills). */
const LIQUIDATION_RATE = 0.022;
const LIQUIDATOR_WALLET = 1;
const BUILDERS = 24;
const FIRST_OID = 300_000_000_000;
const ZERO_HASH = `0x${'0'.repeat(64)}`;

export interface FillStats {
  fills: number;
  liquidationFills: number;
  /** The last trade of each coin: what market_prices holds after the history. */
  lastPrices: Map<string, { px: string; timeMs: number; blockNumber: number }>;
}

/** `words` random 32-bit words as lowercase hex: the fill's hash and cloid, cheaper than SeededRandom.hex's four digits a call. */
function hexWords(random: SeededRandom, words: number): string {
  let out = '';
  for (let i = 0; i < words; i++) out += ((random.next() * 4294967296) >>> 0).toString(16).padStart(8, '0');
  return out;
}

/** Hyperliquid's trade ids look random: an odd multiplier modulo 2^50 scatters consecutive trades (as the node-fills generator does). */
function tradeId(trade: number): number {
  return Number((BigInt(trade) * 0x278dde6e5fd2bn + 0xbn) % (1n << 50n));
}

function direction(start: number, signed: number): string {
  if (start === 0 || Math.sign(start) === Math.sign(signed)) return signed > 0 ? 'Open Long' : 'Open Short';
  if (Math.abs(signed) <= Math.abs(start)) return start > 0 ? 'Close Long' : 'Close Short';
  return start > 0 ? 'Long > Short' : 'Short > Long';
}

/**
 * COPY text in chunks of about `rowsPerChunk` fills, oldest first, spread evenly over the history. Small
 * chunks: a chunk is a rope of its pieces until it is written, and thousands of lines of it outlive the
 * young generation (4,000-line chunks made the generator three times slower, most of it in the collector).
 */
export function* fillCopyChunks(dataset: AnalyticsDataset, stats: FillStats, rowsPerChunk = 500): Generator<string> {
  const { settings, coins, startMs } = dataset;
  const random = new SeededRandom(settings.seed + 1);
  const wallets = settings.wallets;
  const addresses = Array.from({ length: wallets }, (_, i) => dataset.address(i));
  const builders = Array.from({ length: BUILDERS }, () => `0x${random.hex(40)}`);
  const ticks = coins.map((c) => c.markTicks);
  const totalWeight = coins.reduce((sum, c) => sum + c.tradeWeight, 0);
  // Signed position in size units per wallet and coin.
  const positions = new Float64Array(wallets * coins.length);
  const pickCoin = (): number => {
    let r = random.next() * totalWeight;
    for (const c of coins) if ((r -= c.tradeWeight) < 0) return c.index;
    return coins.length - 1;
  };
  // Makers come from the busiest few hundred wallets, takers from a longer tail.
  const pickWallet = (skew: number): number => Math.floor(wallets * random.next() ** skew);

  const trades = Math.ceil(settings.fills / 2);
  const spanMs = settings.endMs - startMs;
  let trade = 0;
  let oid = FIRST_OID;
  let twapId = 2_000_000;
  let blockNumber = 0;
  let chunk = '';
  let rows = 0;
  while (trade < trades) {
    const inBlock = Math.min(trades - trade, random.chance(0.02) ? random.int(40, 150) : random.int(1, 20));
    const timeMs = startMs + Math.floor((spanMs * trade) / trades);
    blockNumber = Math.max(blockNumber + 1, dataset.heightAt(timeMs));
    const time = new Date(timeMs).toISOString();
    for (let t = 0; t < inBlock; t++) {
      const m = pickCoin();
      const coin = coins[m]!;
      // A random walk pulled back toward the mark, so prices stay near the positions' marks.
      ticks[m] = Math.max(1, ticks[m]! + Math.round(random.normal() * ticks[m]! * 0.0004 + (coin.markTicks - ticks[m]!) * 0.0005));
      const pxTicks = ticks[m]!;
      const notional = Math.min(2_000_000, 15 / (random.next() + 0.003));
      let units = Math.max(1, Math.floor((notional / pxTicks) * 10 ** (coin.szDecimals + coin.pxDecimals)));
      let taker = pickWallet(2);
      let takerSide = random.chance(0.5) ? 'B' : 'A';
      let liquidation: { method: string; markPx: string } | null = null;
      // A liquidation needs a taker holding the coin: a few busy wallets are tried.
      for (let attempt = random.chance(LIQUIDATION_RATE) ? 0 : 8; attempt < 8 && liquidation === null; attempt++) {
        const held = positions[taker * coins.length + m]!;
        if (held === 0) {
          taker = pickWallet(2);
          continue;
        }
        // The liquidated wallet's whole position is closed by a market order.
        takerSide = held > 0 ? 'A' : 'B';
        units = Math.abs(held);
        liquidation = {
          method: random.chance(0.9) ? 'market' : 'backstop',
          markPx: decimal(Math.max(1, pxTicks + random.int(-3, 3)), coin.pxDecimals),
        };
      }
      let maker = liquidation?.method === 'backstop' ? LIQUIDATOR_WALLET : pickWallet(5);
      if (maker === taker) maker = (maker + 1) % wallets;
      const tradeNotional = (pxTicks * units) / 10 ** (coin.pxDecimals + coin.szDecimals);
      const isTwap = liquidation === null && random.chance(0.03);
      const builder = liquidation === null && !isTwap && random.chance(0.15) ? builders[Math.floor(BUILDERS * random.next() ** 2)]! : null;
      const builderFeeMicros = builder === null ? 0 : Math.max(1, Math.round(tradeNotional * 100));
      const hash = isTwap ? ZERO_HASH : `0x${hexWords(random, 8)}`;
      const tid = tradeId(++trade);
      const px = decimal(pxTicks, coin.pxDecimals);
      const sz = decimal(units, coin.szDecimals);
      for (const crossed of [true, false]) {
        const wallet = crossed ? taker : maker;
        const side = crossed ? takerSide : takerSide === 'B' ? 'A' : 'B';
        const key = wallet * coins.length + m;
        const start = positions[key]!;
        const signed = side === 'B' ? units : -units;
        positions[key] = start + signed;
        const closing = start !== 0 && Math.sign(start) !== Math.sign(signed) ? Math.min(Math.abs(start), units) : 0;
        const closedNotional = (pxTicks * closing) / 10 ** (coin.pxDecimals + coin.szDecimals);
        // A liquidated wallet closes at a loss; other closes within 3 % either way.
        const pnlShare = liquidation !== null && crossed ? -random.between(0.01, 0.05) : random.between(-0.03, 0.03);
        const pnlMicros = closing === 0 ? 0 : Math.round(closedNotional * pnlShare * 1e6);
        const feeMicros = crossed
          ? Math.round(tradeNotional * 450) + builderFeeMicros
          : random.chance(0.2)
            ? -Math.round(tradeNotional * 20)
            : Math.round(tradeNotional * 150);
        const cloid = random.chance(0.4) ? `0x${hexWords(random, 4)}` : '\\N';
        const twap = isTwap && crossed ? String((twapId += random.int(1, 20))) : '\\N';
        const builderColumns = builder !== null && crossed ? `${builder}\t${decimal(builderFeeMicros, 6)}` : '\\N\t\\N';
        const liquidationColumns =
          liquidation === null
            ? '\\N\t\\N\t\\N\tf'
            : `${addresses[taker]}\t${liquidation.markPx}\t${liquidation.method}\t${crossed ? 't' : 'f'}`;
        chunk +=
          `${addresses[wallet]}\t${coin.coin}\t${px}\t${sz}\t${side}\t${time}\t${decimal(start, coin.szDecimals)}\t${direction(start, signed)}\t` +
          `${decimal(pnlMicros, 6)}\t${hash}\t${(oid += random.int(1, 50))}\t${crossed ? 't' : 'f'}\t${decimal(feeMicros, 6)}\tUSDC\t${tid}\t${cloid}\t` +
          `${twap}\t${builderColumns}\t${liquidationColumns}\t${blockNumber}\t${time}\n`;
        rows++;
        stats.fills++;
        if (liquidation !== null) stats.liquidationFills++;
      }
      stats.lastPrices.set(coin.coin, { px, timeMs, blockNumber });
      if (rows >= rowsPerChunk) {
        yield chunk;
        chunk = '';
        rows = 0;
      }
    }
  }
  if (chunk !== '') yield chunk;
}
