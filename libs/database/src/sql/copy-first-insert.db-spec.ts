import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { resetDatabase, useTestEnvironment } from '#testing';
import { dataSourceOptions } from '../data-source.js';
import { BulkInsert } from './bulk-insert.js';
import { CopyFirstInsert } from './copy-first-insert.js';
import { copyText } from './copy-text.js';

interface Row {
  id: number;
  label: string;
  amount: string;
}

let dataSource: DataSource;

beforeAll(async () => {
  const config = useTestEnvironment();
  await resetDatabase(config.DATABASE_URL);
  dataSource = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
  await dataSource.query(`DROP TABLE IF EXISTS copy_first_rows`);
  await dataSource.query(
    `CREATE TABLE copy_first_rows (id int PRIMARY KEY, label text NOT NULL, amount numeric NOT NULL CHECK (amount >= 0))`,
  );
});

afterAll(async () => {
  await dataSource?.query(`DROP TABLE IF EXISTS copy_first_rows`);
  await dataSource?.destroy();
});

const insert = new BulkInsert<Row>(
  'copy_first_rows',
  'id int, label text, amount numeric',
  (r) => [r.id, r.label, r.amount],
  '(id) DO NOTHING',
);
const store = new CopyFirstInsert(insert, (r: Row) => `${r.id}\t${copyText(r.label)}\t${r.amount}\n`);
const stored = () => dataSource.query(`SELECT id, label, amount::text FROM copy_first_rows ORDER BY id`);

describe('CopyFirstInsert', () => {
  it('stores new rows, special characters and exact decimals included, and counts them', async () => {
    const n = await dataSource.transaction((q) =>
      store.run(q, [
        { id: 1, label: 'tab\there', amount: '0.1000000000000000000001' },
        { id: 2, label: 'back\\slash\nnewline', amount: '3' },
      ]),
    );
    expect(n).toBe(2);
    expect(await stored()).toEqual([
      { id: 1, label: 'tab\there', amount: '0.1000000000000000000001' },
      { id: 2, label: 'back\\slash\nnewline', amount: '3' },
    ]);
  });

  it('falls back to the insert when a row is stored or repeated, keeps the work done before in the transaction, and counts only new rows', async () => {
    const n = await dataSource.transaction(async (q) => {
      await q.query(`INSERT INTO copy_first_rows VALUES (10, 'before', 1)`);
      return store.run(q, [
        { id: 2, label: 'replayed', amount: '9' },
        { id: 3, label: 'new', amount: '4' },
        { id: 3, label: 'repeat in the batch', amount: '5' },
      ]);
    });
    expect(n).toBe(1);
    expect(await stored()).toEqual([
      { id: 1, label: 'tab\there', amount: '0.1000000000000000000001' },
      { id: 2, label: 'back\\slash\nnewline', amount: '3' },
      { id: 3, label: 'new', amount: '4' },
      { id: 10, label: 'before', amount: '1' },
    ]);
  });

  it('lets any other error through and stores nothing of the batch', async () => {
    await expect(
      dataSource.transaction((q) =>
        store.run(q, [
          { id: 20, label: 'ok', amount: '1' },
          { id: 21, label: 'negative', amount: '-1' },
        ]),
      ),
    ).rejects.toThrow('copy_first_rows_amount_check');
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM copy_first_rows WHERE id >= 20`)).toEqual([{ n: 0 }]);
    expect(await dataSource.transaction((q) => store.run(q, []))).toBe(0);
  });
});
