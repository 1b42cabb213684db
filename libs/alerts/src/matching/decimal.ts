import BigBase from 'big.js';

/** big.js with its own settings: 20 places in divisions, half-up rounding. */
export const Dec = BigBase();
Dec.DP = 20;
Dec.RM = 1;
export type Dec = InstanceType<typeof Dec>;

/** A decimal string without exponent form and without trailing zeros (`1e-7` is written `0.0000001`). */
export const plain = (d: Dec): string => d.toFixed();

/** `a / b` rounded to 12 decimal places, as a plain string. */
export const ratio = (a: Dec, b: Dec): string => (b.eq(0) ? '0' : plain(a.div(b).round(12)));
