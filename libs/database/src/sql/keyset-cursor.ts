import { createHmac, timingSafeEqual, type BinaryLike } from 'node:crypto';
import { InvalidInputError } from '#errors';

export type CursorKey = string | number;
export type CursorKind = 'string' | 'number';
type KeysOf<K extends readonly CursorKind[]> = { [I in keyof K]: K[I] extends 'number' ? number : string };

/** A `nextCursor` that was not issued by this service for this list: a 400 naming the field. */
export class InvalidCursorError extends InvalidInputError {
  constructor(reason: string) {
    super('nextCursor', `nextCursor is not a cursor this list issued (${reason}); start again without it`);
  }
}

const SIGNATURE_BYTES = 16;

/**
 * Opaque, tamper-evident keyset cursors: the sort key of a page's last row, as base64url JSON, plus an
 * HMAC of it and of the list it belongs to. A client cannot forge or edit one (a 400), nor take one
 * list's cursor to another; the keys inside are never offsets, so a page stays right while rows are added.
 */
export class KeysetCursorCodec {
  /** `key`: the list cursors' own key (SigningKeys.listCursors), used for nothing else. */
  constructor(private readonly key: BinaryLike) {}

  /** `list` names the list (route and sort) the cursor continues. */
  encode(list: string, keys: readonly CursorKey[]): string {
    const payload = Buffer.from(JSON.stringify(keys)).toString('base64url');
    return `${payload}.${this.sign(list, payload).toString('base64url')}`;
  }

  /** The keys of a cursor `encode(list, ...)` issued, checked against `kinds`; throws InvalidCursorError otherwise. */
  decode<K extends readonly CursorKind[]>(list: string, cursor: string, kinds: K): KeysOf<K> {
    const dot = cursor.indexOf('.');
    if (dot <= 0) throw new InvalidCursorError('malformed');
    const payload = cursor.slice(0, dot);
    const signature = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const expected = this.sign(list, payload);
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected))
      throw new InvalidCursorError('signature does not match');
    let keys: unknown;
    try {
      keys = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw new InvalidCursorError('malformed');
    }
    if (!Array.isArray(keys) || keys.length !== kinds.length || keys.some((k, i) => typeof k !== kinds[i]))
      throw new InvalidCursorError('wrong shape');
    return keys as KeysOf<K>;
  }

  private sign(list: string, payload: string): Buffer {
    return createHmac('sha256', this.key).update(`${list}\0${payload}`).digest().subarray(0, SIGNATURE_BYTES);
  }
}

/** A page from `limit + 1` rows: the first `limit`, and the key of the last of them when more follow. */
export function keysetPage<T, K>(rows: readonly T[], limit: number, keyOf: (last: T) => K): { items: T[]; next: K | null } {
  const items = rows.slice(0, limit);
  return { items, next: rows.length > limit && items.length > 0 ? keyOf(items[items.length - 1]!) : null };
}
