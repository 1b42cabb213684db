import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { SqlRunner } from './sql-runner.js';

// COPY's text format: tab between columns, \N for null, and backslash, tab, newline and carriage return
// escaped inside values. Only free-text fields (a coin, a dir label, a cloid) can hold those: decimals,
// hex and ISO times are checked against their formats by the parsers.
const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escapeChar = (c: string): string => ESCAPES[c]!;

export const copyText = (v: string): string => (SPECIAL.test(v) ? v.replace(SPECIALS, escapeChar) : v);
export const copyNullableText = (v: string | null): string => (v === null ? '\\N' : copyText(v));
/** A value that cannot hold a special character (number, decimal string, hex, ISO time), or null. */
export const copyNullable = (v: string | number | null): string => (v === null ? '\\N' : String(v));
export const copyBool = (v: boolean): string => (v ? 't' : 'f');

/**
 * The driver's connection under a transaction's EntityManager, for what TypeORM cannot run: COPY, and
 * queries streamed row by row.
 */
export async function driverConnection(q: SqlRunner): Promise<pg.ClientBase> {
  const runner = (q as { queryRunner?: { connect(): Promise<unknown> } }).queryRunner;
  if (runner === undefined) throw new Error('the driver connection is reached inside a transaction: pass its EntityManager');
  return (await runner.connect()) as pg.ClientBase;
}

/**
 * Streams text-format lines (each ending in "\n") into `COPY <target> FROM STDIN` on the transaction's
 * connection; the next chunk is encoded while Postgres stores the previous one. Returns the row count.
 */
export async function copyLines(q: SqlRunner, target: string, chunks: Iterable<string>): Promise<number> {
  const copy = (await driverConnection(q)).query(copyFrom(`COPY ${target} FROM STDIN`));
  await pipeline(Readable.from(chunks), copy);
  return copy.rowCount;
}

/** `rows` as COPY text in chunks of `size` rows. */
export function* copyChunks<T>(rows: readonly T[], line: (row: T) => string, size = 2_000): Generator<string> {
  for (let start = 0; start < rows.length; start += size) {
    const end = Math.min(rows.length, start + size);
    let chunk = '';
    for (let i = start; i < end; i++) chunk += line(rows[i]!);
    yield chunk;
  }
}
