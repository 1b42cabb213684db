import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { resetDatabase, useTestEnvironment } from '#testing';
import { dataSourceOptions } from '../data-source.js';
import { jsonDecimal, jsonIsoTime, jsonKeysetPage, jsonRows, jsonSelectList } from './json-page.js';
import { JsonText } from './json-text.js';
import { ListQuery } from './list-query.js';
import { epochMs, isoTime } from './sql-time.js';

// Decimals chosen where a careless rendering goes wrong: more digits than a double holds, trailing
// zeros, tiny and huge magnitudes, negative values, and halves of a last double digit.
const ROWS: Array<{ id: number; amount: string; at: string; label: string | null }> = [
  { id: 1, amount: '0.1000000000000000000001', at: '2026-06-28T08:03:00.123Z', label: 'plain' },
  { id: 2, amount: '60000.50000', at: '2026-06-28T08:03:00.123456Z', label: 'quote " backslash \\ newline \n tab \t' },
  { id: 3, amount: '-1234.5600', at: '2026-06-28T08:03:00.9996Z', label: 'unicode é ✓ 🐋' },
  { id: 4, amount: '0.00000001', at: '1999-12-31T23:59:59.9995Z', label: null },
  { id: 5, amount: '123456789012345678901234567890.123', at: '2026-01-01T00:00:00.000Z', label: '' },
  { id: 6, amount: '9007199254740993', at: '2026-01-01T00:00:00.0004Z', label: 'x' },
  { id: 7, amount: '0', at: '2026-01-01T00:00:00.0005Z', label: 'zero' },
  { id: 8, amount: '0.30000000000000001665', at: '2038-01-19T03:14:08.001Z', label: 'y' },
];

const FIELDS = {
  id: 'id',
  amount: jsonDecimal('amount'),
  at: jsonIsoTime('at'),
  label: 'label',
  fixed: `'perp'`,
  missing: jsonDecimal('NULL::numeric'),
};

let dataSource: DataSource;
/** Each row as the services built it before: stored text through Number() and isoTime(epochMs). */
let expected: Map<number, Record<string, unknown>>;

beforeAll(async () => {
  const config = useTestEnvironment();
  await resetDatabase(config.DATABASE_URL);
  dataSource = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
  await dataSource.query(`DROP TABLE IF EXISTS json_rows`);
  await dataSource.query(`CREATE TABLE json_rows (id int PRIMARY KEY, amount numeric NOT NULL, at timestamptz NOT NULL, label text)`);
  await dataSource.query(`INSERT INTO json_rows SELECT * FROM unnest($1::int[], $2::numeric[], $3::timestamptz[], $4::text[])`, [
    ROWS.map((r) => r.id),
    ROWS.map((r) => r.amount),
    ROWS.map((r) => r.at),
    ROWS.map((r) => r.label),
  ]);
  const stored: Array<{ id: number; amount: string; at_ms: string; label: string | null }> = await dataSource.query(
    `SELECT id, amount::text AS amount, ${epochMs('at')} AS at_ms, label FROM json_rows`,
  );
  expected = new Map(
    stored.map((r) => [
      r.id,
      { id: r.id, amount: Number(r.amount), at: isoTime(Number(r.at_ms)), label: r.label, fixed: 'perp', missing: null },
    ]),
  );
});

afterAll(async () => {
  await dataSource?.query(`DROP TABLE IF EXISTS json_rows`);
  await dataSource?.destroy();
});

const page = (limit: number, after: number | null = null) => {
  const list = new ListQuery().where('amount <> ?', -1).after(['id'], after === null ? null : [after], 'desc');
  return jsonKeysetPage(dataSource, {
    rows: `SELECT * FROM json_rows WHERE ${list.condition} ORDER BY id DESC`,
    params: list.params,
    limit,
    fields: FIELDS,
    keys: ['id', `'k' || id`],
  });
};

describe('jsonKeysetPage', () => {
  it('renders each row as the services did: the same numbers, ISO times and texts, fields in the given order', async () => {
    const { json, next } = await page(8);
    expect(json).toBeInstanceOf(JsonText);
    expect(next).toBeNull();
    const objects = JSON.parse(json.text) as Array<Record<string, unknown>>;
    expect(objects).toEqual([8, 7, 6, 5, 4, 3, 2, 1].map((id) => expected.get(id)));
    for (const object of objects) expect(Object.keys(object)).toEqual(['id', 'amount', 'at', 'label', 'fixed', 'missing']);
    // The numbers by hand, not only through Number(): rounding to the millisecond as epochMs does, not cutting.
    expect(objects.find((o) => o.id === 3)).toMatchObject({ amount: -1234.56, at: '2026-06-28T08:03:01.000Z' });
    expect(objects.find((o) => o.id === 4)).toMatchObject({ amount: 1e-8, at: '2000-01-01T00:00:00.000Z' });
    expect(objects.find((o) => o.id === 6)).toMatchObject({ amount: 9007199254740992, at: '2026-01-01T00:00:00.000Z' });
    expect(objects.find((o) => o.id === 7)).toMatchObject({ amount: 0, at: '2026-01-01T00:00:00.001Z' });
    // Just below the midpoint (0.3000000000000000166535...) between the doubles 0.3 and 0.30000000000000004.
    expect(objects.find((o) => o.id === 8)).toMatchObject({ amount: 0.3 });
  });

  it('walks the pages with the keys of each last row, every row once, and ends with null', async () => {
    const first = await page(3);
    expect(JSON.parse(first.json.text).map((o: { id: number }) => o.id)).toEqual([8, 7, 6]);
    expect(first.next).toEqual([6, 'k6']);
    const second = await page(3, 6);
    expect(JSON.parse(second.json.text).map((o: { id: number }) => o.id)).toEqual([5, 4, 3]);
    expect(second.next).toEqual([3, 'k3']);
    const last = await page(3, 3);
    expect(JSON.parse(last.json.text).map((o: { id: number }) => o.id)).toEqual([2, 1]);
    expect(last.next).toBeNull();
  });

  it('renders a page of arrays when given a list of expressions', async () => {
    const list = new ListQuery().after(['id'], [5], 'desc');
    const { json, next } = await jsonKeysetPage(dataSource, {
      rows: `SELECT * FROM json_rows WHERE ${list.condition} ORDER BY id DESC`,
      params: list.params,
      limit: 2,
      fields: ['id', jsonDecimal('amount')],
      keys: ['id'],
    });
    expect(JSON.parse(json.text)).toEqual([
      [4, 1e-8],
      [3, -1234.56],
    ]);
    expect(next).toEqual([3]);
  });

  it('has no next page when the rows end exactly at the limit, and an empty array past the end', async () => {
    expect((await page(2, 3)).next).toBeNull();
    const empty = await page(5, 1);
    expect(empty.json.text).toBe('[]');
    expect(empty.next).toBeNull();
  });

  it('refuses a limit below 1, a page without keys, and a field name that would need quoting', async () => {
    await expect(page(0)).rejects.toThrow('limit must be a positive integer');
    await expect(
      jsonKeysetPage(dataSource, { rows: 'SELECT * FROM json_rows', params: [], limit: 1, fields: FIELDS, keys: [] }),
    ).rejects.toThrow('at least one key');
    expect(() => jsonSelectList({ 'a"b': 'id' })).toThrow('"a"b" is not a plain field name');
  });
});

describe('jsonRows', () => {
  it('renders a whole query in its order', async () => {
    const json = await jsonRows(dataSource, `SELECT * FROM json_rows WHERE id <= $1 ORDER BY amount`, [3], {
      id: 'id',
      amount: jsonDecimal('amount'),
    });
    expect(JSON.parse(json.text)).toEqual([
      { id: 3, amount: -1234.56 },
      { id: 1, amount: 0.1 },
      { id: 2, amount: 60000.5 },
    ]);
    expect((await jsonRows(dataSource, `SELECT * FROM json_rows WHERE false`, [], { id: 'id' })).text).toBe('[]');
  });

  it('renders each row as an array when given a list of expressions (columnar data)', async () => {
    const json = await jsonRows(
      dataSource,
      `SELECT * FROM json_rows WHERE id IN (2, 4) ORDER BY id`,
      [],
      ['label', jsonIsoTime('at'), jsonDecimal('amount')],
    );
    expect(JSON.parse(json.text)).toEqual([
      [ROWS[1]!.label, '2026-06-28T08:03:00.123Z', 60000.5],
      [null, '2000-01-01T00:00:00.000Z', 1e-8],
    ]);
  });
});
