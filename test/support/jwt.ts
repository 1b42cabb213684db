import { createHmac } from 'node:crypto';

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** An HS256 JWT built by hand, independently of the service's own signing code. */
export function signHs256(claims: Record<string, unknown>, secret: string): string {
  const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
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
