import { InvalidInputError } from '#errors';
import type { RuleFilters } from '../../alert.types.js';
import type { KnownMarket } from './known-markets.repository.js';

/** Spot markets (`@107`, `PURR/USDC`) have no price ticks and no alerts; HIP-3 `dex:COIN` are perpetual. */
const isSpot = (coin: string): boolean => coin.startsWith('@') || coin.includes('/');

/** The market names a rule's filters hold, for one lookup. */
export function ruleMarketNames(filters: RuleFilters): string[] {
  return [...(filters.coin ?? []), ...(filters.markets ?? []), ...(filters.market === undefined ? [] : [filters.market])];
}

/**
 * The filters with every market name in its stored spelling (`btc` is `BTC`, `kpepe` is `kPEPE`). An
 * unknown market, a name listed twice once spelled the stored way, or a price rule on a market without
 * price ticks is an InvalidInputError naming the field.
 */
export function canonicalMarkets(filters: RuleFilters, known: ReadonlyMap<string, readonly KnownMarket[]>): RuleFilters {
  const resolve = (field: string, name: string): KnownMarket => {
    const spellings = known.get(name.toLowerCase()) ?? [];
    const market = spellings.find((m) => m.coin === name) ?? spellings[0];
    if (!market) throw new InvalidInputError(field, `${name} is not a market the service knows`);
    return market;
  };
  const list = (field: string, names: readonly string[]): string[] => {
    const seen = new Set<string>();
    return names.map((name, i) => {
      const { coin } = resolve(`${field}[${i}]`, name);
      if (seen.has(coin)) throw new InvalidInputError(`${field}[${i}]`, `${coin} is listed twice`);
      seen.add(coin);
      return coin;
    });
  };
  const out: RuleFilters = { ...filters };
  if (filters.coin) out.coin = list('filters.coin', filters.coin);
  if (filters.markets) out.markets = list('filters.markets', filters.markets);
  if (filters.market !== undefined) {
    const market = resolve('filters.market', filters.market);
    if (!market.priced || isSpot(market.coin))
      throw new InvalidInputError(
        'filters.market',
        `${market.coin} has no price ticks${isSpot(market.coin) ? ' (a spot market)' : ' yet'}: a price_crossing on it could never fire`,
      );
    out.market = market.coin;
  }
  return out;
}
