import Big from 'big.js';

/**
 * A big.js constructor of our own so the precision of divisions does not depend on (or change) the global
 * Big.DP other code may set. Sums and products are always exact; only a quotient that does not terminate
 * (an average, a flip's fee share) is rounded, half to even at 18 decimals: far below any price tick or
 * USDC unit (6 decimals), and the same in every process.
 */
export const Dec = Big();
Dec.DP = 18;
Dec.RM = Big.roundHalfEven;

export type Decimal = Big;

export const ZERO = new Dec(0);

export function dec(value: string | number | Big): Big {
  return new Dec(value);
}

/** Exact decimal string without exponent; big.js keeps no trailing zeros. */
export function str(value: Big): string {
  return value.toFixed();
}

/** numerator / denominator as a decimal string (rounded as above), or null when the denominator is 0. */
export function quotient(numerator: Big, denominator: Big): string | null {
  return denominator.eq(0) ? null : str(dec(numerator).div(denominator));
}
