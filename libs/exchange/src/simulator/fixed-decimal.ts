/**
 * Exact decimals as scaled integers: a value is a bigint count of 10^-scale units, its scale known
 * from where it is kept (cash in 10^-6, entry prices in 10^-8, ...). The simulator's output was first
 * made with big.js; these reproduce its results digit for digit (its default rounding, half away from
 * zero, and its division to Big.DP = 20 places) at a fraction of the cost.
 */

/** big.js's rounding modes the simulator uses: Big.roundHalfUp (half away from zero) and Big.roundUp (away from zero). */
export type Rounding = 'halfUp' | 'up';

/** Places big.js divides to before the caller rounds (Big.DP's default). */
export const DIVISION_DP = 20;

const POW10: bigint[] = [];
for (let i = 0, p = 1n; i <= 60; i++, p *= 10n) POW10.push(p);
// Written out so every one is the exact double (10^22 is the last power of ten a double holds exactly).
const POW10_FLOAT = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function pow10(n: number): bigint {
  const p = POW10[n];
  if (p === undefined) throw new Error(`10^${n} is out of range`);
  return p;
}

/** The integer quotient of a / b (b > 0) rounded as `rounding` says. */
function divideRounded(a: bigint, b: bigint, rounding: Rounding): bigint {
  const q = a / b;
  const r = a % b;
  if (r === 0n) return q;
  const away = rounding === 'up' || 2n * (r < 0n ? -r : r) >= b;
  return away ? (a < 0n ? q - 1n : q + 1n) : q;
}

/** `units` of 10^-from as units of 10^-to: big.js's round(to, rounding), which keeps a value with fewer places as it is. */
export function rescale(units: bigint, from: number, to: number, rounding: Rounding = 'halfUp'): bigint {
  if (to >= from) return units * pow10(to - from);
  return divideRounded(units, pow10(from - to), rounding);
}

/**
 * a / b as big.js's div with its defaults: rounded half up to DIVISION_DP places (units of 10^-20).
 * The caller's own rounding then applies to that, as it did to big.js's quotient.
 */
export function divide(a: bigint, aScale: number, b: bigint, bScale: number): bigint {
  if (b === 0n) throw new Error('division by zero');
  // a·10^-aScale / (b·10^-bScale) in units of 10^-20 = a·10^(20 - aScale + bScale) / b.
  const shift = DIVISION_DP - aScale + bScale;
  const numerator = shift >= 0 ? a * pow10(shift) : a;
  const denominator = shift >= 0 ? b : b * pow10(-shift);
  return divideRounded(b < 0n ? -numerator : numerator, b < 0n ? -denominator : denominator, 'halfUp');
}

/**
 * The nearest double, as big.js's toNumber (Number of the decimal text) gives it: a safe integer divided
 * by an exact power of ten is one correctly rounded operation, so it lands on the same double.
 */
export function toNumber(units: bigint, scale: number): number {
  if (units <= MAX_SAFE && units >= -MAX_SAFE && scale < POW10_FLOAT.length) return Number(units) / POW10_FLOAT[scale]!;
  return Number(plainText(units, scale));
}

/** A decimal text ("-12.5") as units of 10^-scale; it must not have more places than that. */
export function parseUnits(text: string, scale: number): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match || (match[3] ?? '').length > scale) throw new Error(`not a decimal of at most ${scale} places: ${text}`);
  const units = BigInt(match[2]! + (match[3] ?? '').padEnd(scale, '0'));
  return match[1] ? -units : units;
}

/** toNumber for a safe integer count of units, such as a size. */
export function unitsToNumber(units: number, scale: number): number {
  if (!Number.isSafeInteger(units)) throw new Error(`not a whole number of units: ${units}`);
  return units / POW10_FLOAT[scale]!;
}

/** All `scale` places written out ("-12.340000"); a zero has no sign. */
export function plainText(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  return `${negative ? '-' : ''}${scale === 0 ? whole : `${whole}.${digits.slice(digits.length - scale)}`}`;
}

/**
 * A decimal as Hyperliquid writes it: trailing zeros dropped but one decimal kept ("4.0", "0.040673"),
 * never an exponent. `digits` are the absolute value's digits in units of 10^-scale; a zero is never
 * `negative` (the callers hold integers, which have no negative zero), so "-0.0" is never written.
 */
export function hlText(negative: boolean, digits: string, scale: number): string {
  const padded = digits.length <= scale ? digits.padStart(scale + 1, '0') : digits;
  const point = padded.length - scale;
  let end = padded.length;
  while (end > point && padded.charCodeAt(end - 1) === 48) end--;
  const whole = padded.slice(0, point);
  const fraction = end > point ? padded.slice(point, end) : '0';
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** As big.js's toFixed() without places writes a value: trailing zeros and a bare point dropped ("12.5", "3"). */
export function bigText(units: bigint, scale: number): string {
  const text = hlDecimalOf(units, scale);
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}

/** `units` of 10^-scale rounded half up to `dp` places and written as Hyperliquid writes decimals. */
export function hlDecimalOf(units: bigint, scale: number, dp = scale): string {
  const rounded = rescale(units, scale, Math.min(scale, dp));
  const negative = rounded < 0n;
  return hlText(negative, (negative ? -rounded : rounded).toString(), Math.min(scale, dp));
}
