import { createHmac, hkdfSync } from 'node:crypto';
import { TEST_JWT_SECRET } from '#testing';

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * The key of one purpose as docs/decisions.md specifies it (HKDF-SHA256 of the secret, no salt, info
 * `tidewatch <purpose>`, 32 bytes), computed here independently of the service's own code.
 */
export function purposeKey(secret: string | Buffer, purpose: 'tokens' | 'list cursors' | 'export links'): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `tidewatch ${purpose}`, 32));
}

/** The key the tests' api signs and checks tokens with. */
export const TEST_TOKEN_KEY = purposeKey(TEST_JWT_SECRET, 'tokens');

/** An HS256 JWT built by hand, independently of the service's own signing code. */
export function signHs256(claims: Record<string, unknown>, key: string | Buffer): string {
  const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${head}.${createHmac('sha256', key).update(head).digest('base64url')}`;
}

/** An `alg: none` token: claims with no signature at all. */
export function unsignedToken(claims: Record<string, unknown>): string {
  return `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}.`;
}

export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

/** The same token with its claims replaced and its original signature kept. */
export function tamper(token: string, changes: Record<string, unknown>): string {
  const [header, , signature] = token.split('.');
  return `${header}.${b64url(JSON.stringify({ ...claimsOf(token), ...changes }))}.${signature}`;
}
