import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { resetDatabase, useTestEnvironment } from '#testing';
import { dataSourceOptions } from '../data-source.js';
import { BulkInsert } from './bulk-insert.js';

interface Row {
  id: number;
  amount: string;
  tags: string[];
}

let dataSource: DataSource;

beforeAll(async () => {
  const config = useTestEnvironment();
  await resetDatabase(config.DATABASE_URL);
  dataSource = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
  await dataSource.query(`DROP TABLE IF EXISTS bulk_rows`);
  await dataSource.query(`CREATE TABLE bulk_rows (id int PRIMARY KEY, amount numeric NOT NULL, tags text[] NOT NULL)`);
});

afterAll(async () => {
  await dataSource?.query(`DROP TABLE IF EXISTS bulk_rows`);
  await dataSource?.destroy();
});

const COLUMNS = 'id int, amount numeric, tags text';
const values = (r: Row) => [r.id, r.amount, JSON.stringify(r.tags)];
// A two-dimensional array cannot travel through unnest: it goes as JSON text and is converted.
const select = { tags: (x: string) => `ARRAY(SELECT jsonb_array_elements_text(${x}::jsonb))` };

describe('BulkInsert', () => {
  it('inserts every row in one statement with exact decimals and skips stored keys', async () => {
    const q = dataSource.manager;
    const insert = new BulkInsert<Row>('bulk_rows', COLUMNS, values, '(id) DO NOTHING', select);
    expect(await insert.run(q, [])).toBe(0);
    expect(
      await insert.run(q, [
        { id: 1, amount: '0.1000000000000000000001', tags: ['a', 'b'] },
        { id: 2, amount: '-3', tags: [] },
      ]),
    ).toBe(2);
    expect(
      await insert.run(q, [
        { id: 2, amount: '9', tags: ['x'] },
        { id: 3, amount: '1e2', tags: ['c'] },
      ]),
    ).toBe(1);
    expect(await q.query(`SELECT id, amount::text, tags FROM bulk_rows ORDER BY id`)).toEqual([
      { id: 1, amount: '0.1000000000000000000001', tags: ['a', 'b'] },
      { id: 2, amount: '-3', tags: [] },
      { id: 3, amount: '100', tags: ['c'] },
    ]);
  });

  it('upserts with a DO UPDATE clause that reads the stored row as t', async () => {
    const q = dataSource.manager;
    const add = new BulkInsert<Row>('bulk_rows', COLUMNS, values, '(id) DO UPDATE SET amount = t.amount + EXCLUDED.amount', select);
    expect(
      await add.run(q, [
        { id: 1, amount: '0.9', tags: [] },
        { id: 4, amount: '4', tags: [] },
      ]),
    ).toBe(2);
    expect(await q.query(`SELECT id, amount::text FROM bulk_rows WHERE id IN (1, 4) ORDER BY id`)).toEqual([
      { id: 1, amount: '1.0000000000000000000001' },
      { id: 4, amount: '4' },
    ]);
  });

  it('refuses a declaration it cannot turn into a statement, and rows of the wrong width', async () => {
    expect(() => new BulkInsert<Row>('bulk_rows', 'id int, amount', values, '(id) DO NOTHING')).toThrow(
      'BulkInsert bulk_rows: "amount" is not "name type"',
    );
    expect(() => new BulkInsert<Row>('bulk_rows', COLUMNS, values, '(id) DO NOTHING', { tag: (x) => x })).toThrow(
      'BulkInsert bulk_rows: select for unknown column tag',
    );
    const short = new BulkInsert<Row>('bulk_rows', COLUMNS, (r) => [r.id, r.amount], '(id) DO NOTHING', select);
    await expect(short.run(dataSource.manager, [{ id: 9, amount: '1', tags: [] }])).rejects.toThrow(
      'BulkInsert bulk_rows: 2 values for 3 columns',
    );
  });
});
