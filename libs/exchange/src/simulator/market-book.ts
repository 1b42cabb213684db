import { pow10 } from './fixed-decimal.js';
import type { SeededRandom } from './seeded-random.js';
import { unitsToDecimal } from './wire-format.js';

export interface MarketSpec {
  coin: string;
  /** Decimals of the price tick; prices are integers of ticks so no binary float reaches a price string. */
  pxDecimals: number;
  szDecimals: number;
  /** Starting price in ticks. */
  startTicks: number;
}

// Interleaved so that any prefix of three or more markets already holds a HIP-3 `prefix:SYMBOL` market.
export const MARKET_CATALOGUE: readonly MarketSpec[] = [
  { coin: 'BTC', pxDecimals: 0, szDecimals: 5, startTicks: 97_000 },
  { coin: 'ETH', pxDecimals: 1, szDecimals: 4, startTicks: 34_000 },
  { coin: 'xyz:TSLA', pxDecimals: 2, szDecimals: 3, startTicks: 42_000 },
  { coin: 'SOL', pxDecimals: 2, szDecimals: 2, startTicks: 15_000 },
  { coin: 'HYPE', pxDecimals: 3, szDecimals: 2, startTicks: 38_000 },
  { coin: 'xyz:NVDA', pxDecimals: 2, szDecimals: 3, startTicks: 18_000 },
  { coin: 'DOGE', pxDecimals: 5, szDecimals: 0, startTicks: 18_000 },
  { coin: 'xyz:GOLD', pxDecimals: 1, szDecimals: 4, startTicks: 33_000 },
  { coin: 'XRP', pxDecimals: 4, szDecimals: 1, startTicks: 24_000 },
  { coin: 'flx:SILVER', pxDecimals: 3, szDecimals: 2, startTicks: 38_000 },
  { coin: 'AVAX', pxDecimals: 3, szDecimals: 2, startTicks: 25_000 },
  { coin: 'ENA', pxDecimals: 5, szDecimals: 0, startTicks: 50_000 },
];

/** The most size decimals of any market: PnL summed over a wallet's markets is kept at this many places plus the entry price's. */
export const MAX_SZ_DECIMALS = Math.max(...MARKET_CATALOGUE.map((spec) => spec.szDecimals));

export class Market {
  ticks: number;
  /** Hourly funding rate, a random walk of its own; a decimal string with 10 places like hl-node's. */
  fundingRateUnits = 0;
  // Read for every position whenever a wallet's equity is; the price moves once per block.
  private exactPx = { ticks: Number.NaN, dp: Number.NaN, units: 0n };
  private readonly ticksPerUnit: number;
  private readonly unitsPerSize: number;

  constructor(readonly spec: MarketSpec) {
    this.ticks = spec.startTicks;
    this.ticksPerUnit = 10 ** spec.pxDecimals;
    this.unitsPerSize = 10 ** spec.szDecimals;
  }

  get coin(): string {
    return this.spec.coin;
  }

  /** Price as a float: for sizing decisions only, never written. */
  get pxNumber(): number {
    return this.ticks / this.ticksPerUnit;
  }

  /** The price now in units of 10^-dp (dp at least pxDecimals): exact. */
  pxUnits(dp: number): bigint {
    if (this.exactPx.ticks !== this.ticks || this.exactPx.dp !== dp) {
      this.exactPx = { ticks: this.ticks, dp, units: BigInt(this.ticks) * pow10(dp - this.spec.pxDecimals) };
    }
    return this.exactPx.units;
  }

  pxText(ticks = this.ticks): string {
    return unitsToDecimal(ticks, this.spec.pxDecimals);
  }

  /** Ticks of a price `fraction` away from the current one (e.g. 0.01 = 1 % above). */
  ticksAt(fraction: number): number {
    return Math.max(1, Math.round(this.ticks * (1 + fraction)));
  }

  /** Size units (10^-szDecimals) worth about `notional` USD; 0 if less than one unit. */
  unitsFor(notional: number): number {
    return Math.max(0, Math.floor((notional / this.pxNumber) * this.unitsPerSize));
  }
}

export class MarketBook {
  readonly markets: Market[];
  private readonly byCoin: Map<string, Market>;

  constructor(count: number) {
    if (count < 1 || count > MARKET_CATALOGUE.length) throw new Error(`markets must be 1 to ${MARKET_CATALOGUE.length}`);
    this.markets = MARKET_CATALOGUE.slice(0, count).map((spec) => new Market(spec));
    this.byCoin = new Map(this.markets.map((m) => [m.coin, m]));
  }

  get(coin: string): Market {
    const market = this.byCoin.get(coin);
    if (!market) throw new Error(`unknown market ${coin}`);
    return market;
  }

  /** Moves every price by a random walk scaled to `hourlyVolatility` over `dtMs` of exchange time. */
  step(random: SeededRandom, dtMs: number, hourlyVolatility: number): void {
    const sigma = hourlyVolatility * Math.sqrt(dtMs / 3_600_000);
    for (const market of this.markets) {
      // Floor keeps the price a positive integer of ticks whatever the draw.
      market.ticks = Math.max(1, market.ticks + Math.round(market.ticks * sigma * random.normal()));
      market.fundingRateUnits = Math.max(-500_000, Math.min(500_000, market.fundingRateUnits + random.int(-2_000, 2_000)));
    }
  }
}
