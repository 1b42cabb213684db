/**
 * An exact decimal as an integer count of units of 10^-dp. The closed-trade builder adds and multiplies
 * decimals for every stored fill; big.js keeps a digit array per value and was most of the projector's
 * time. The results are the same as `Dec`'s (closed-trade.decimal.ts): sums, differences and products
 * are exact, a quotient is rounded half to even at QUOTIENT_DP places, and `toFixed()` writes what
 * big.js's `toFixed()` writes (no exponent, no trailing zeros, never "-0").
 */
export const QUOTIENT_DP = 18;

const POWERS: bigint[] = [1n];
const pow10 = (n: number): bigint => {
  while (POWERS.length <= n) POWERS.push(POWERS[POWERS.length - 1]! * 10n);
  return POWERS[n]!;
};

// big.js's accepted forms: optional sign, digits with an optional fraction, an optional exponent.
const NUMBER = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

export class ScaledDecimal {
  private constructor(
    readonly units: bigint,
    readonly dp: number,
  ) {}

  static readonly ZERO = new ScaledDecimal(0n, 0);

  static from(value: ScaledDecimal | string | number): ScaledDecimal {
    if (value instanceof ScaledDecimal) return value;
    const text = typeof value === 'number' ? String(value) : value;
    return plainDecimal(text) ?? ScaledDecimal.parse(text);
  }

  private static parse(text: string): ScaledDecimal {
    const match = NUMBER.exec(text);
    if (match === null || (match[2] === '' && (match[3] ?? '') === ''))
      throw new TypeError(`not a decimal number: ${JSON.stringify(text)}`);
    const [, sign, whole, fraction = '', exponent = '0'] = match;
    let units = BigInt(`${whole}${fraction}` || '0');
    let dp = fraction.length - Number(exponent);
    if (dp < 0) {
      units *= pow10(-dp);
      dp = 0;
    }
    return new ScaledDecimal(sign === '-' ? -units : units, dp);
  }

  /** Units and places already known to be a decimal's (plainDecimal's fast path). */
  static of(units: bigint, dp: number): ScaledDecimal {
    return new ScaledDecimal(units, dp);
  }

  plus(other: ScaledDecimal | string | number): ScaledDecimal {
    const y = ScaledDecimal.from(other);
    if (this.dp === y.dp) return new ScaledDecimal(this.units + y.units, this.dp);
    return this.dp > y.dp
      ? new ScaledDecimal(this.units + y.units * pow10(this.dp - y.dp), this.dp)
      : new ScaledDecimal(this.units * pow10(y.dp - this.dp) + y.units, y.dp);
  }

  minus(other: ScaledDecimal | string | number): ScaledDecimal {
    return this.plus(ScaledDecimal.from(other).neg());
  }

  times(other: ScaledDecimal | string | number): ScaledDecimal {
    const y = ScaledDecimal.from(other);
    return new ScaledDecimal(this.units * y.units, this.dp + y.dp);
  }

  /** this / other rounded half to even at QUOTIENT_DP places; throws on a zero divisor. */
  div(other: ScaledDecimal | string | number): ScaledDecimal {
    const y = ScaledDecimal.from(other);
    if (y.units === 0n) throw new RangeError('division by zero');
    // (a / 10^da) / (b / 10^db) in units of 10^-QUOTIENT_DP = a * 10^(db + QUOTIENT_DP) / (b * 10^da).
    let numerator = this.units * pow10(y.dp + QUOTIENT_DP);
    let denominator = y.units * pow10(this.dp);
    if (denominator < 0n) {
      numerator = -numerator;
      denominator = -denominator;
    }
    let quotient = numerator / denominator;
    const remainder = numerator % denominator;
    if (remainder !== 0n) {
      const twice = (remainder < 0n ? -remainder : remainder) * 2n;
      const awayFromZero = twice > denominator || (twice === denominator && quotient % 2n !== 0n);
      if (awayFromZero) quotient += numerator < 0n ? -1n : 1n;
    }
    return new ScaledDecimal(quotient, QUOTIENT_DP);
  }

  neg(): ScaledDecimal {
    return new ScaledDecimal(-this.units, this.dp);
  }

  abs(): ScaledDecimal {
    return this.units < 0n ? this.neg() : this;
  }

  cmp(other: ScaledDecimal | string | number): -1 | 0 | 1 {
    const y = ScaledDecimal.from(other);
    const a = this.dp >= y.dp ? this.units : this.units * pow10(y.dp - this.dp);
    const b = y.dp >= this.dp ? y.units : y.units * pow10(this.dp - y.dp);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  eq(other: ScaledDecimal | string | number): boolean {
    return this.cmp(other) === 0;
  }

  gt(other: ScaledDecimal | string | number): boolean {
    return this.cmp(other) > 0;
  }

  lt(other: ScaledDecimal | string | number): boolean {
    return this.cmp(other) < 0;
  }

  lte(other: ScaledDecimal | string | number): boolean {
    return this.cmp(other) <= 0;
  }

  /** As big.js writes it: "-12.5", "0.001", "300", "0". */
  toFixed(): string {
    if (this.units === 0n) return '0';
    const negative = this.units < 0n;
    let digits = (negative ? -this.units : this.units).toString();
    let dp = this.dp;
    let end = digits.length;
    while (dp > 0 && digits.charCodeAt(end - 1) === 48) {
      end--;
      dp--;
    }
    digits = digits.slice(0, end);
    if (dp > 0) digits = digits.length > dp ? `${digits.slice(0, -dp)}.${digits.slice(-dp)}` : `0.${digits.padStart(dp, '0')}`;
    return negative ? `-${digits}` : digits;
  }
}

/**
 * The usual form ("-123.4500", "7") read without a regular expression: digits that fit a double exactly
 * (15 at most) go through Number, which is several times cheaper than BigInt's string parse. Anything
 * else is left to the full parse.
 */
function plainDecimal(text: string): ScaledDecimal | null {
  const length = text.length;
  const i = text.charCodeAt(0) === 45 ? 1 : 0;
  if (i === length) return null;
  let digits = 0;
  let point = -1;
  for (let j = i; j < length; j++) {
    const c = text.charCodeAt(j);
    if (c === 46 && point < 0) point = j;
    else if (c >= 48 && c <= 57) digits++;
    else return null;
  }
  if (digits === 0 || digits > 15) return null;
  const dp = point < 0 ? 0 : length - point - 1;
  const magnitude = point < 0 ? Number(text.slice(i)) : Number(text.slice(i, point) + text.slice(point + 1));
  const units = BigInt(magnitude);
  return ScaledDecimal.of(i === 1 ? -units : units, dp);
}
