import { describe, expect, it } from '@jest/globals';
import { formatIssue, parseEach, WireError } from './parse-result.js';
import { expectDecimal, expectUint, isDecimalString, WireObject } from './wire-reader.js';

describe('wire readers', () => {
  it('accept plain decimal strings only, as received', () => {
    const good = ['0', '0.0', '-162.6', '2703997.4500000002', '0.0000810249', '990908538720549'];
    for (const text of good) expect(isDecimalString(text)).toBe(true);
    for (const bad of ['abc', '1e-5', '1.', '.5', '+1', ' 1', '1,5', '', 'NaN', 'Infinity']) expect(isDecimalString(bad)).toBe(false);
    expect(() => expectDecimal(72.153, 'px')).toThrow('expected a decimal string, got number 72.153');
  });

  it('accept integers only up to 2^53 - 1', () => {
    expect(expectUint(990908538720549, 'tid')).toBe(990908538720549);
    expect(expectUint(Number.MAX_SAFE_INTEGER, 'tid')).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => expectUint(Number.MAX_SAFE_INTEGER + 1, 'tid')).toThrow('beyond 2^53 - 1');
    expect(() => expectUint(-1, 'tid')).toThrow('non-negative integer');
    expect(() => expectUint(1.5, 'tid')).toThrow('non-negative integer');
    expect(() => expectUint('12', 'tid')).toThrow('non-negative integer');
  });

  it('read optional fields as null whether absent or null, and name the wire path of a bad one', () => {
    const o = new WireObject({ a: null, b: '1.5', c: 'x' }, 'events[2].fill');
    expect(o.optionalDecimal('a')).toBeNull();
    expect(o.optionalDecimal('missing')).toBeNull();
    expect(o.optionalDecimal('b')).toBe('1.5');
    try {
      o.decimal('c');
      throw new Error('not reached');
    } catch (error) {
      expect(error).toBeInstanceOf(WireError);
      expect((error as WireError).path).toBe('events[2].fill.c');
    }
    expect(() => o.decimal('missing')).toThrow('missing');
  });

  it('read each element of a list as its own record', () => {
    const result = parseEach(['1', 'x', '3'], { file: 'f.json' }, '', (item, path) => expectDecimal(item, path));
    expect(result).toEqual({
      ok: true,
      value: ['1', '3'],
      issues: [{ source: { file: 'f.json' }, path: '[1]', message: 'expected a decimal string, got "x"' }],
    });
    if (result.ok) expect(formatIssue(result.issues[0]!)).toBe('f.json [1]: expected a decimal string, got "x"');
  });
});
