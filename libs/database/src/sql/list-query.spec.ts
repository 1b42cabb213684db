import { describe, expect, it } from '@jest/globals';
import { ListQuery } from './list-query.js';

describe('ListQuery', () => {
  it('numbers the values of every condition in order and keeps them out of the SQL', () => {
    const list = new ListQuery()
      .where('address = ?', '0xabc')
      .whereDefined('close_time >= ?::timestamptz', 1_000, (ms) => new Date(ms).toISOString())
      .whereDefined('close_time <= ?::timestamptz', undefined as number | undefined)
      .where('coin = ? OR coin = ?', 'BTC', "x'; DROP TABLE fills; --")
      .after(['close_time', 'hash'], ['2026-01-01T00:00:00.000Z', '0xh'], 'desc');
    const limit = list.param(101);
    expect(list.condition).toBe(
      '(address = $1) AND (close_time >= $2::timestamptz) AND (coin = $3 OR coin = $4) AND (close_time, hash) < ($5, $6)',
    );
    expect(limit).toBe('$7');
    expect(list.params).toEqual([
      '0xabc',
      '1970-01-01T00:00:01.000Z',
      'BTC',
      "x'; DROP TABLE fills; --",
      '2026-01-01T00:00:00.000Z',
      '0xh',
      101,
    ]);
  });

  it('reads forward after the cursor row for ascending lists, and adds nothing without a cursor', () => {
    expect(new ListQuery().after(['address', 'oid'], ['0xa', 5], 'asc').condition).toBe('(address, oid) > ($1, $2)');
    expect(new ListQuery().after(['address', 'oid'], null, 'asc').condition).toBe('TRUE');
  });

  it('refuses a condition whose placeholders and values do not match', () => {
    expect(() => new ListQuery().where('a = ? AND b = ?', 1)).toThrow('2 placeholders for 1 values');
    expect(() => new ListQuery().after(['a', 'b'], [1], 'asc')).toThrow('1 cursor keys for 2 columns');
  });
});
