/**
 * An exact decimal with Postgres's `numeric` rules, so TypeScript can compute what a statement would have
 * written, to the digit and to the display scale: the state update of the simulated exchange is derived in
 * the ingestor's memory and must write the very text the set-based SQL writes (market-state.writer.ts).
 *
 * - `parse` reads what numeric_in reads of a plain or exponent decimal: the scale is the fraction digits
 *   given (trailing zeros kept), less the exponent, never below 0.
 * - `plus`/`minus` keep the larger scale, `times` the sum of both; sum() over rows is NumericSum.
 * - `div` is numeric_div: the quotient is rounded half away from zero at the scale select_div_scale
 *   picks (at least 16 significant digits, never less than either operand's scale).
 * - `round(s)` is round(numeric, s) for s >= 0: half away from zero, the scale padded to s.
 * - `toString` is numeric_out: exactly `scale` fraction digits, never "-0".
 *
 * The units are a JavaScript number while they are a safe integer (every figure of a state update but the
 * longest quotients) and a bigint beyond: sums of thousands of positions at every update in bigints cost
 * more than the SQL they replace.
 */
export class PgNumeric {
  private constructor(
    /** The units (value in 10^-scale) when `big` is null: a safe integer. */
    private readonly small: number,
    private readonly big: bigint | null,
    readonly scale: number,
  ) {}

  static readonly ZERO = new PgNumeric(0, null, 0);

  static of(units: bigint, scale: number): PgNumeric {
    return units >= MIN_SAFE && units <= MAX_SAFE ? new PgNumeric(Number(units), null, scale) : new PgNumeric(0, units, scale);
  }

  /** A value of `units` (a number) at `scale`, or null when `units` is not a safe integer. */
  static ofSafeInteger(units: number, scale: number): PgNumeric | null {
    return Number.isSafeInteger(units) ? new PgNumeric(units === 0 ? 0 : units, null, scale) : null;
  }

  /** numeric_in of a plain (`-12.50`) or exponent (`1.5e-3`) decimal; throws on anything else (NaN, Infinity). */
  static parse(text: string): PgNumeric {
    return plain(text) ?? withExponent(text);
  }

  /** The value in units of 10^-scale. */
  get units(): bigint {
    return this.big ?? BigInt(this.small);
  }

  /** The units as a number when they are a safe integer, else null. */
  get safeUnits(): number | null {
    return this.big === null ? this.small : null;
  }

  get sign(): -1 | 0 | 1 {
    if (this.big !== null) return this.big < 0n ? -1 : 1;
    return this.small < 0 ? -1 : this.small > 0 ? 1 : 0;
  }

  plus(other: PgNumeric): PgNumeric {
    if (this.big === null && other.big === null) {
      const sum = safeSum(this.small, this.scale, other.small, other.scale);
      if (!Number.isNaN(sum)) return new PgNumeric(sum, null, Math.max(this.scale, other.scale));
    }
    const scale = Math.max(this.scale, other.scale);
    return PgNumeric.of(this.units * pow10(scale - this.scale) + other.units * pow10(scale - other.scale), scale);
  }

  minus(other: PgNumeric): PgNumeric {
    return this.plus(other.neg());
  }

  times(other: PgNumeric): PgNumeric {
    if (this.big === null && other.big === null) {
      const product = PgNumeric.ofSafeInteger(this.small * other.small, this.scale + other.scale);
      if (product !== null) return product;
    }
    return PgNumeric.of(this.units * other.units, this.scale + other.scale);
  }

  neg(): PgNumeric {
    return this.big === null ? new PgNumeric(this.small === 0 ? 0 : -this.small, null, this.scale) : new PgNumeric(0, -this.big, this.scale);
  }

  abs(): PgNumeric {
    return this.sign < 0 ? this.neg() : this;
  }

  cmp(other: PgNumeric): -1 | 0 | 1 {
    if (this.big === null && other.big === null) {
      const a = this.scale >= other.scale ? this.small : this.small * POWERS_N[other.scale - this.scale]!;
      const b = other.scale >= this.scale ? other.small : other.small * POWERS_N[this.scale - other.scale]!;
      if (Number.isSafeInteger(a) && Number.isSafeInteger(b)) return a < b ? -1 : a > b ? 1 : 0;
    }
    const a = this.units * pow10(Math.max(0, other.scale - this.scale));
    const b = other.units * pow10(Math.max(0, this.scale - other.scale));
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** numeric_div; throws on a zero divisor, as Postgres does. */
  div(other: PgNumeric): PgNumeric {
    if (other.sign === 0) throw new RangeError('division by zero');
    const scale = divisionScale(this, other);
    // (a / 10^sa) / (b / 10^sb) in units of 10^-scale = a * 10^(sb + scale - sa) / b.
    const shift = other.scale + scale - this.scale;
    const numerator = shift >= 0 ? this.units * pow10(shift) : this.units;
    const denominator = shift >= 0 ? other.units : other.units * pow10(-shift);
    return PgNumeric.of(roundedQuotient(numerator, denominator), scale);
  }

  /** round(numeric, scale) for a scale of 0 or more. */
  round(scale: number): PgNumeric {
    if (scale >= this.scale) return this.big === null ? (PgNumeric.ofSafeInteger(this.small * POWERS_N[scale - this.scale]!, scale) ?? this.rescaled(scale)) : this.rescaled(scale);
    return PgNumeric.of(roundedQuotient(this.units, pow10(this.scale - scale)), scale);
  }

  private rescaled(scale: number): PgNumeric {
    return PgNumeric.of(this.units * pow10(scale - this.scale), scale);
  }

  toString(): string {
    const negative = this.sign < 0;
    const magnitude = this.big === null ? String(negative ? -this.small : this.small) : String(negative ? -this.big : this.big);
    const digits = magnitude.length > this.scale ? magnitude : magnitude.padStart(this.scale + 1, '0');
    const text = this.scale === 0 ? digits : `${digits.slice(0, -this.scale)}.${digits.slice(-this.scale)}`;
    return negative ? `-${text}` : text;
  }
}

/**
 * sum(numeric) over rows: exact, at the largest scale added (0 before any row: `coalesce(sum(x), 0)`). One
 * mutable accumulator instead of a value per addition.
 */
export class NumericSum {
  private small = 0;
  private big: bigint | null = null;
  private scale = 0;

  add(value: PgNumeric): void {
    const units = value.safeUnits;
    if (this.big === null && units !== null && this.addSafe(units, value.scale)) return;
    const total = this.value().plus(value);
    this.big = total.units;
    this.scale = total.scale;
  }

  /** A sum of sums (summed groups). */
  addSum(other: NumericSum): void {
    if (this.big === null && other.big === null && this.addSafe(other.small, other.scale)) return;
    this.add(other.value());
  }

  /** Adds safe-integer units in place; false (nothing added) when the sum would leave the safe integers. */
  private addSafe(units: number, scale: number): boolean {
    const sum = safeSum(this.small, this.scale, units, scale);
    if (Number.isNaN(sum)) return false;
    this.small = sum;
    this.scale = Math.max(this.scale, scale);
    return true;
  }

  value(): PgNumeric {
    return this.big === null ? PgNumeric.ofSafeInteger(this.small, this.scale)! : PgNumeric.of(this.big, this.scale);
  }

  toString(): string {
    return this.value().toString();
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;
/** 10^0 to 10^15 as numbers: exact, and a safe integer times one is checked with Number.isSafeInteger. */
const POWERS_N: number[] = Array.from({ length: 16 }, (_, i) => 10 ** i);

/**
 * a + b of two safe-integer unit counts at their scales, in units of the larger scale (never -0); NaN when a
 * step leaves the safe integers, for the caller to add in bigints.
 */
function safeSum(a: number, aScale: number, b: number, bScale: number): number {
  const scale = Math.max(aScale, bScale);
  const x = a * (POWERS_N[scale - aScale] ?? NaN);
  const y = b * (POWERS_N[scale - bScale] ?? NaN);
  const sum = x + y;
  if (!Number.isSafeInteger(x) || !Number.isSafeInteger(y) || !Number.isSafeInteger(sum)) return NaN;
  return sum === 0 ? 0 : sum;
}

const POWERS: bigint[] = [1n];
function pow10(n: number): bigint {
  while (POWERS.length <= n) POWERS.push(POWERS[POWERS.length - 1]! * 10n);
  return POWERS[n]!;
}

/** numerator / denominator, rounded half away from zero (bigint division truncates towards zero). */
function roundedQuotient(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n) return quotient;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  if (twice < (denominator < 0n ? -denominator : denominator)) return quotient;
  return (numerator < 0n) !== (denominator < 0n) ? quotient - 1n : quotient + 1n;
}

// numeric.c's constants: base-10000 digits, 16 significant digits at least for a quotient.
const DEC_DIGITS = 4;
const NUMERIC_MIN_SIG_DIGITS = 16;
const NUMERIC_MAX_DISPLAY_SCALE = 1000;

/** select_div_scale of numeric.c: from each operand's weight and first digit in base 10000. */
function divisionScale(dividend: PgNumeric, divisor: PgNumeric): number {
  const [weight1, first1] = weightAndFirstDigit(dividend);
  const [weight2, first2] = weightAndFirstDigit(divisor);
  // If the first digits are equal the quotient's weight is uncertain; numeric.c assumes dividend < divisor.
  const qweight = weight1 - weight2 - (first1 <= first2 ? 1 : 0);
  const scale = Math.max(NUMERIC_MIN_SIG_DIGITS - qweight * DEC_DIGITS, dividend.scale, divisor.scale, 0);
  return Math.min(scale, NUMERIC_MAX_DISPLAY_SCALE);
}

/**
 * The weight (power of 10000) of a value's leading base-10000 digit, and that digit; (0, 0) for zero.
 * The digits are aligned on the decimal point: 123.45 is [0123][4500], weight 0, first digit 123.
 */
function weightAndFirstDigit(value: PgNumeric): [weight: number, firstDigit: number] {
  if (value.sign === 0) return [0, 0];
  const small = value.safeUnits;
  if (small !== null) {
    const magnitude = Math.abs(small);
    const exponent = String(magnitude).length - 1 - value.scale; // of the leading decimal digit
    const weight = Math.floor(exponent / DEC_DIGITS);
    const shift = -DEC_DIGITS * weight - value.scale;
    // Below 10^4 either way (the leading digit group), and exact: a remainder of powers of 10 is.
    const scaled = shift >= 0 ? magnitude * POWERS_N[shift]! : (magnitude - (magnitude % POWERS_N[-shift]!)) / POWERS_N[-shift]!;
    return [weight, scaled % 10_000];
  }
  const units = value.units;
  const magnitude = units < 0n ? -units : units;
  const exponent = magnitude.toString().length - 1 - value.scale;
  const weight = Math.floor(exponent / DEC_DIGITS);
  const shift = -DEC_DIGITS * weight - value.scale;
  const scaled = shift >= 0 ? magnitude * pow10(shift) : magnitude / pow10(-shift);
  return [weight, Number(scaled % 10_000n)];
}

/** The usual form ("-123.4500", "7", ".5") without a regular expression; null for anything else. */
function plain(text: string): PgNumeric | null {
  const length = text.length;
  const first = text.charCodeAt(0);
  const i = first === 45 || first === 43 ? 1 : 0;
  let digits = 0;
  let point = -1;
  // Up to 15 digits the units are a safe integer, summed here without a string or a BigInt.
  let units = 0;
  for (let j = i; j < length; j++) {
    const c = text.charCodeAt(j);
    if (c === 46 && point < 0) point = j;
    else if (c >= 48 && c <= 57) {
      digits++;
      units = units * 10 + (c - 48);
    } else return null;
  }
  if (digits === 0) return null;
  const scale = point < 0 ? 0 : length - point - 1;
  if (digits <= 15) return PgNumeric.ofSafeInteger(first === 45 ? -units : units, scale);
  const magnitude = BigInt(point < 0 ? text.slice(i) : text.slice(i, point) + text.slice(point + 1));
  return PgNumeric.of(first === 45 ? -magnitude : magnitude, scale);
}

const EXPONENT_FORM = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;

function withExponent(text: string): PgNumeric {
  const match = EXPONENT_FORM.exec(text);
  if (match === null || (match[2] === '' && (match[3] ?? '') === '')) throw new TypeError(`not a numeric: ${JSON.stringify(text)}`);
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  let units = BigInt(`${whole}${fraction}` || '0');
  let scale = fraction.length - exponent;
  if (scale < 0) {
    units *= pow10(-scale);
    scale = 0;
  }
  return PgNumeric.of(sign === '-' ? -units : units, scale);
}
