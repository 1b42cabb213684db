/** What an array parameter may hold: the scalar values the repositories bind. */
export type SqlArrayElement = string | number | bigint | boolean | null | undefined;

const NEEDS_ESCAPE = /["\\]/;
const QUOTES_AND_BACKSLASHES = /["\\]/g;

/**
 * A flat array parameter as Postgres's array literal text, `{"a","b",NULL}`: the same text node-postgres
 * makes of a JavaScript array (every element quoted, `"` and `\` escaped, null as NULL), so Postgres reads
 * the same values. The driver's own conversion escapes every element with two regular-expression
 * replaces and a type dispatch. The facts writer and the open-order book bind a score of arrays per
 * statement (decimals, hex strings, times, most of which need no escape) many times a batch: that
 * conversion was a tenth of the ingestor thread's allocations during a catch-up.
 */
export function sqlArray(values: readonly SqlArrayElement[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      parts[i] = 'NULL';
    } else if (typeof v === 'string') {
      parts[i] = NEEDS_ESCAPE.test(v) ? `"${v.replace(QUOTES_AND_BACKSLASHES, '\\$&')}"` : `"${v}"`;
    } else if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') {
      parts[i] = `"${String(v)}"`;
    } else {
      throw new TypeError(`sqlArray: element ${i} is a ${typeof v}, not a scalar`);
    }
  }
  return `{${parts.join(',')}}`;
}
