/** Exact decimal text of a bigint count of 10^-scale units. */
export function bigDecimal(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** round(num / den, scale) half away from zero, as Postgres rounds numerics, in exact integers. */
export function roundedRatio(num: bigint, den: bigint, scale: number): string {
  const negative = num < 0n !== den < 0n && num !== 0n;
  const [n, d] = [num < 0n ? -num : num, den < 0n ? -den : den];
  const scaled = n * 10n ** BigInt(scale);
  let quotient = scaled / d;
  if ((scaled % d) * 2n >= d) quotient += 1n;
  return bigDecimal(negative ? -quotient : quotient, scale);
}
