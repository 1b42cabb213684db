import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { resetDatabase, useTestEnvironment } from '#testing';
import { dataSourceOptions } from '../data-source.js';
import { sqlArray } from './sql-array.js';

let dataSource: DataSource;

beforeAll(async () => {
  const config = useTestEnvironment();
  await resetDatabase(config.DATABASE_URL);
  dataSource = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
});

afterAll(async () => {
  await dataSource?.destroy();
});

describe('sqlArray in Postgres', () => {
  it('is read back element for element, special characters, empty strings and nulls included', async () => {
    const texts = ['0xAbC', '', 'NULL', 'a,b', '{x}', ' spaced ', 'quote"d', 'back\\slash', 'tab\there', 'new\nline', 'ünïcode €', null];
    const [row] = await dataSource.query(`SELECT $1::text[] AS texts, array_length($1::text[], 1) AS n`, [sqlArray(texts)]);
    expect(row).toEqual({ texts, n: 12 });
  });

  it('carries exact decimals, big integers, booleans and JSON documents', async () => {
    const rows = await dataSource.query(
      `SELECT d::text AS d, b::text AS b, f, j->>'k' AS k FROM unnest($1::numeric[], $2::bigint[], $3::boolean[], $4::jsonb[]) AS x(d, b, f, j)`,
      [
        sqlArray(['0.1000000000000000000001', '-3', null]),
        sqlArray([9007199254740993n, -1, 0]),
        sqlArray([true, false, null]),
        sqlArray([JSON.stringify({ k: 'a"b\\c' }), JSON.stringify({ k: '' }), null]),
      ],
    );
    expect(rows).toEqual([
      { d: '0.1000000000000000000001', b: '9007199254740993', f: true, k: 'a"b\\c' },
      { d: '-3', b: '-1', f: false, k: '' },
      { d: null, b: '0', f: null, k: null },
    ]);
  });
});
