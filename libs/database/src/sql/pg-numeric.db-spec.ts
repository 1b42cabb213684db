import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { resetDatabase, useTestEnvironment } from '#testing';
import { dataSourceOptions } from '../data-source.js';
import { NumericSum, PgNumeric } from './pg-numeric.js';
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

/** A fixed sequence of decimals of every size: 0 to 12 integer digits, 0 to 12 fraction digits, zeros, signs. */
function decimals(count: number, seed: number): string[] {
  let x = seed;
  const next = (n: number) => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return x % n;
  };
  const digits = (n: number) => Array.from({ length: n }, () => String(next(10))).join('');
  return Array.from({ length: count }, () => {
    if (next(25) === 0) return next(2) ? '0' : '0.000';
    const whole = digits(next(13)).replace(/^0+(?=\d)/, '') || '0';
    const fractionDigits = next(13);
    const text = fractionDigits === 0 ? whole : `${whole}.${digits(fractionDigits)}`;
    return next(3) === 0 ? `-${text}` : text;
  });
}

describe('PgNumeric against Postgres', () => {
  it('writes what numeric writes for sums, differences, products, quotients and roundings of 3,000 pairs', async () => {
    const a = decimals(3_000, 7);
    const b = decimals(3_000, 11).map((d) => (/^-?0(\.0*)?$/.test(d) ? '1.5' : d));
    const rows: Array<{ sum: string; difference: string; product: string; quotient: string; rounded: string; round2: string }> = await dataSource.query(
      `SELECT (a + b)::text AS sum, (a - b)::text AS difference, (a * b)::text AS product, (a / b)::text AS quotient,
              round(a / b, 6)::text AS rounded, round(a, 2)::text AS round2
       FROM unnest($1::numeric[], $2::numeric[]) WITH ORDINALITY AS t(a, b, i) ORDER BY i`,
      [sqlArray(a), sqlArray(b)],
    );
    const mine = a.map((x, i) => {
      const [p, q] = [PgNumeric.parse(x), PgNumeric.parse(b[i]!)];
      return { sum: `${p.plus(q)}`, difference: `${p.minus(q)}`, product: `${p.times(q)}`, quotient: `${p.div(q)}`, rounded: `${p.div(q).round(6)}`, round2: `${p.round(2)}` };
    });
    for (let i = 0; i < rows.length; i++) expect([a[i], b[i], mine[i]]).toEqual([a[i], b[i], rows[i]]);
  });

  it('sums as sum(numeric) does: exact at the largest scale, past the safe integers of a double, and 0 over no rows', async () => {
    const many = decimals(3_000, 13);
    const large = ['9007199254740991', '1', '0.000001', '-4503599627370496.5', '9999999999.999999', '9999999999.999999'];
    const sums: Array<{ many: string; large: string; none: string }> = await dataSource.query(
      `SELECT (SELECT sum(x)::text FROM unnest($1::numeric[]) AS x) AS many, (SELECT sum(x)::text FROM unnest($2::numeric[]) AS x) AS large,
              (SELECT coalesce(sum(x), 0)::text FROM unnest('{}'::numeric[]) AS x) AS none`,
      [sqlArray(many), sqlArray(large)],
    );
    const sum = (values: string[]) => {
      const total = new NumericSum();
      for (const v of values) total.add(PgNumeric.parse(v));
      return `${total}`;
    };
    expect({ many: sum(many), large: sum(large), none: sum([]) }).toEqual(sums[0]);
  });

  it('reads numeric input forms as numeric_in does', async () => {
    const forms = ['12.500', '-0.00', '+3', '.5', '7.', ' 42 ', '1e3', '1.5e-3', '-2.50E+1', '000123.0100', '98765432109876543210.123456789'];
    const rows: Array<{ t: string }> = await dataSource.query(`SELECT x::text AS t FROM unnest($1::numeric[]) WITH ORDINALITY AS u(x, i) ORDER BY i`, [sqlArray(forms)]);
    expect(forms.map((f) => `${PgNumeric.parse(f)}`)).toEqual(rows.map((r) => r.t));
  });

  it('compares as numeric compares, whatever the scales', () => {
    expect(PgNumeric.parse('1.50').cmp(PgNumeric.parse('1.5'))).toBe(0);
    expect(PgNumeric.parse('-0.001').cmp(PgNumeric.parse('0'))).toBe(-1);
    expect(PgNumeric.parse('10').cmp(PgNumeric.parse('9.999999'))).toBe(1);
  });

  it('refuses what is not a decimal, and a zero divisor', () => {
    for (const bad of ['NaN', 'Infinity', '', '-', '1.2.3', 'abc']) expect(() => PgNumeric.parse(bad)).toThrow(TypeError);
    expect(() => PgNumeric.parse('1').div(PgNumeric.parse('0.00'))).toThrow(RangeError);
  });
});
