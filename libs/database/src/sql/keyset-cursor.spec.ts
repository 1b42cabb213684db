import { describe, expect, it } from '@jest/globals';
import { InvalidInputError } from '#errors';
import { InvalidCursorError, KeysetCursorCodec, keysetPage } from './keyset-cursor.js';

const codec = new KeysetCursorCodec('secret-one');

describe('KeysetCursorCodec', () => {
  it('gives back the keys it encoded, for the list it was issued for', () => {
    const cursor = codec.encode('closed-trades', [1_751_328_000_123, '0xabc']);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(codec.decode('closed-trades', cursor, ['number', 'string'] as const)).toEqual([1_751_328_000_123, '0xabc']);
  });

  it('refuses an altered payload, another list, another secret and a malformed text, as a 400 on nextCursor', () => {
    const cursor = codec.encode('closed-trades', [5, 'a']);
    const [payload, signature] = cursor.split('.');
    const altered = `${Buffer.from(JSON.stringify([4, 'a'])).toString('base64url')}.${signature}`;
    const cases: Array<[string, string, string]> = [
      ['closed-trades', altered, 'signature does not match'],
      ['order-snapshots', cursor, 'signature does not match'],
      ['closed-trades', `${payload}.${signature!.slice(0, -2)}`, 'signature does not match'],
      ['closed-trades', 'not-a-cursor', 'malformed'],
      ['closed-trades', `.${signature}`, 'malformed'],
    ];
    for (const [list, text, reason] of cases) {
      let error: unknown;
      try {
        codec.decode(list, text, ['number', 'string'] as const);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidCursorError);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(error).toMatchObject({
        field: 'nextCursor',
        message: `nextCursor is not a cursor this list issued (${reason}); start again without it`,
      });
    }
    expect(() => new KeysetCursorCodec('secret-two').decode('closed-trades', cursor, ['number', 'string'] as const)).toThrow(
      InvalidCursorError,
    );
  });

  it('refuses a genuine cursor whose keys are not the shape the list expects', () => {
    const cursor = codec.encode('orders', ['0xabc', 12]);
    expect(() => codec.decode('orders', cursor, ['string', 'string'] as const)).toThrow('(wrong shape)');
    expect(() => codec.decode('orders', cursor, ['string'] as const)).toThrow('(wrong shape)');
  });
});

describe('keysetPage', () => {
  const rows = [{ id: 1 }, { id: 2 }, { id: 3 }];
  it('keeps `limit` rows and names the last one when a further row was read', () => {
    expect(keysetPage(rows, 2, (r) => r.id)).toEqual({ items: [{ id: 1 }, { id: 2 }], next: 2 });
  });
  it('has no next key on the last page', () => {
    expect(keysetPage(rows, 3, (r) => r.id)).toEqual({ items: rows, next: null });
    expect(keysetPage([], 3, (r: { id: number }) => r.id)).toEqual({ items: [], next: null });
  });
});
