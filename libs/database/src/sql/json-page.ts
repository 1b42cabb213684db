import { JsonText } from './json-text.js';
import type { CursorKey } from './keyset-cursor.js';
import type { SqlRunner } from './sql-runner.js';

/**
 * A response object's fields in the response's order: JSON name → SQL expression over the rows' columns.
 * Use the converters below for the values the contract gives as numbers or times.
 */
export type JsonFields = Readonly<Record<string, string>>;

/**
 * A decimal (`numeric`) as a JSON number: its exact digits without trailing zeros, so any JSON parser
 * reads the nearest double of the stored decimal, the value `jsonNumber` gives. Null stays null.
 */
export const jsonDecimal = (expression: string): string => `trim_scale(${expression})`;

/**
 * A timestamptz as ISO 8601 UTC with milliseconds (`2026-06-28T08:03:00.000Z`), the text `isoTime`
 * writes: rounded to the millisecond as `epochMs` rounds (to_char alone would cut). Null stays null.
 */
export const jsonIsoTime = (expression: string): string =>
  `to_char(date_trunc('milliseconds', ${expression} + interval '0.5 milliseconds') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `expression AS "name", ...`: the select list whose row_to_json is the response object. */
export function jsonSelectList(fields: JsonFields): string {
  return Object.entries(fields)
    .map(([name, expression]) => {
      if (!FIELD_NAME.test(name)) throw new Error(`jsonSelectList: "${name}" is not a plain field name`);
      return `${expression} AS "${name}"`;
    })
    .join(', ');
}

/**
 * The SQL aggregating the rows of `from` (in their order) into one JSON array text: each row an object of
 * `fields`, or with a list of expressions, an array of them (a columnar `data` row).
 */
function jsonArraySql(fields: JsonFields | readonly string[], from: string): string {
  return isExpressionList(fields)
    ? `SELECT coalesce(json_agg(json_build_array(${fields.join(', ')})), '[]')::text FROM ${from}`
    : `SELECT coalesce(json_agg(r), '[]')::text FROM (SELECT ${jsonSelectList(fields)} FROM ${from}) r`;
}

const isExpressionList = (fields: JsonFields | readonly string[]): fields is readonly string[] => Array.isArray(fields);

/**
 * The rows of a query as one JSON array text, rendered by Postgres: `fields` over the columns of `rows`
 * (a whole SELECT, in the order the array must have), each row an object, or an array when `fields` is
 * a list of expressions. For lists that are not keyset pages.
 */
export async function jsonRows(
  q: SqlRunner,
  rows: string,
  params: readonly unknown[],
  fields: JsonFields | readonly string[],
): Promise<JsonText> {
  const result: Array<{ json: string }> = await q.query(`SELECT (${jsonArraySql(fields, `(${rows}) source`)}) AS json`, [...params]);
  return new JsonText(result[0]!.json);
}

export interface JsonKeysetPageQuery {
  /**
   * The list's rows in its keyset order: `SELECT <columns> FROM ... WHERE ... ORDER BY ...`, without a
   * LIMIT (this adds `limit + 1`, to know whether another page follows). Its conditions and cursor come
   * from a ListQuery.
   */
  rows: string;
  params: readonly unknown[];
  limit: number;
  /** The response object of one row, over the columns `rows` selects (or a list of expressions: each row an array). */
  fields: JsonFields | readonly string[];
  /** The cursor's keys of a row, over the same columns: SQL giving a number or a text each (`epochMs('time')`, `tid::text`). */
  keys: readonly string[];
}

export interface JsonKeysetPage {
  /** The page's objects as a JSON array. */
  json: JsonText;
  /** The keys of the page's last row when another page follows, else null. */
  next: CursorKey[] | null;
}

/**
 * One keyset page rendered by Postgres: the page's objects as a JSON array text, and the last row's
 * keys for the cursor. The api sends the text as it is, so no row is parsed, converted or stringified in
 * node; Postgres builds each object once (row_to_json of the named fields, for the `limit` rows only).
 * The page is read once, into a CTE, in its ORDER BY order, which the CTE's scans keep; the keys are
 * computed for the one row they are taken from (an OFFSET over the expressions would compute them for
 * every row it skips).
 *
 *   const list = new ListQuery().where(...).after(['time', 'tid'], cursor, 'desc');
 *   const page = await jsonKeysetPage(q, {
 *     rows: `SELECT * FROM fills WHERE ${list.condition} ORDER BY time DESC, tid DESC`, params: list.params, limit,
 *     fields: { tid: 'tid', px: jsonDecimal('px'), time: jsonIsoTime('time') },
 *     keys: [epochMs('time'), 'tid::text'],
 *   });
 *   return JsonText.object({ fills: page.json, nextCursor: page.next && codec.encode(LIST, page.next) });
 */
export async function jsonKeysetPage(q: SqlRunner, query: JsonKeysetPageQuery): Promise<JsonKeysetPage> {
  if (!Number.isInteger(query.limit) || query.limit < 1)
    throw new Error(`jsonKeysetPage: limit must be a positive integer, got ${query.limit}`);
  if (query.keys.length === 0) throw new Error('jsonKeysetPage: a keyset page needs at least one key');
  const limit = `$${query.params.length + 1}::int`;
  const result: Array<{ json: string; rows: number; last_keys: string | null }> = await q.query(
    `WITH page AS (${query.rows} LIMIT ${limit} + 1)
     SELECT (${jsonArraySql(query.fields, `(SELECT * FROM page LIMIT ${limit}) page`)}) AS json,
            (SELECT count(*)::int FROM page) AS rows,
            (SELECT json_build_array(${query.keys.join(', ')})::text FROM (SELECT * FROM page OFFSET ${limit} - 1 LIMIT 1) page) AS last_keys`,
    [...query.params, query.limit],
  );
  const { json, rows, last_keys: lastKeys } = result[0]!;
  return { json: new JsonText(json), next: rows > query.limit ? cursorKeys(lastKeys!) : null };
}

function cursorKeys(text: string): CursorKey[] {
  const keys: unknown = JSON.parse(text);
  if (!Array.isArray(keys) || keys.some((k) => typeof k !== 'string' && typeof k !== 'number')) {
    throw new Error(`jsonKeysetPage: cursor keys must be numbers or texts, got ${text}`);
  }
  return keys as CursorKey[];
}
