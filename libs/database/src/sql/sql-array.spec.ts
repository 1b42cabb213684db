import { describe, expect, it } from '@jest/globals';
import { createRequire } from 'node:module';
import { sqlArray, type SqlArrayElement } from './sql-array.js';

// node-postgres's own conversion of a parameter (not in its typings): what sqlArray must equal.
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(value: unknown): unknown };
const driverText = (values: readonly SqlArrayElement[]): unknown => prepareValue(values);

describe('sqlArray', () => {
  it('quotes every element, escapes quotes and backslashes, and writes null and undefined as NULL', () => {
    expect(sqlArray(['0xabc', '-1.25', '2026-11-26T00:00:00.000Z'])).toBe('{"0xabc","-1.25","2026-11-26T00:00:00.000Z"}');
    expect(sqlArray(['{"a":"b\\\\c"}', null, undefined, ''])).toBe('{"{\\"a\\":\\"b\\\\\\\\c\\"}",NULL,NULL,""}');
    expect(sqlArray([7, -0.5, 12345678901234567890n, true, false])).toBe('{"7","-0.5","12345678901234567890","true","false"}');
    expect(sqlArray([])).toBe('{}');
  });

  it('gives the driver’s text for the values the writers bind, special characters included', () => {
    const samples: SqlArrayElement[][] = [
      ['BTC', 'xyz:GOLD', 'Long > Short', 'Open Long', 'NULL', 'a,b', '{x}', ' spaced ', 'tab\there', 'new\nline', 'ünïcode €'],
      ['{"px":"1.5","children":[]}', 'back\\slash', 'quote"d', '\\"', '"', '\\'],
      [0, 1, -1, 1.5e-7, 1e21, Number.MAX_SAFE_INTEGER, 2n ** 64n, true, false, null, undefined],
    ];
    for (const values of samples) expect(sqlArray(values)).toBe(driverText(values));
  });

  it('refuses an element that is not a scalar', () => {
    expect(() => sqlArray(['a', { b: 1 } as unknown as string])).toThrow('sqlArray: element 1 is a object, not a scalar');
  });
});
