import { describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { SigningKeys } from './signing-keys.js';

const secret = Buffer.from('tidewatch-unit-secret-0123456789');
/** RFC 5869 HKDF-SHA256 with no salt, as docs/decisions.md gives it, computed from its definition with HMAC. */
function hkdf(ikm: Buffer, info: string): Buffer {
  const prk = createHmac('sha256', Buffer.alloc(32)).update(ikm).digest();
  return createHmac('sha256', prk)
    .update(Buffer.concat([Buffer.from(info), Buffer.from([1])]))
    .digest();
}

describe('SigningKeys', () => {
  const keys = new SigningKeys(secret);

  it('derives each purpose key with HKDF-SHA256, info `tidewatch <purpose>`', () => {
    expect(keys.tokens.export()).toEqual(hkdf(secret, 'tidewatch tokens'));
    expect(keys.listCursors).toEqual(hkdf(secret, 'tidewatch list cursors'));
    expect(keys.exportLinks).toEqual(hkdf(secret, 'tidewatch export links'));
  });

  it('gives three different keys, none of them the secret, and other keys for another secret', () => {
    const all = [keys.tokens.export(), keys.listCursors, keys.exportLinks].map((k) => k.toString('hex'));
    expect(new Set([...all, secret.toString('hex')]).size).toBe(4);
    expect(new SigningKeys(Buffer.from('tidewatch-unit-secret-0123456780')).listCursors).not.toEqual(keys.listCursors);
  });
});
