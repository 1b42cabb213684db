import { Injectable } from '@nestjs/common';
import type { Principal } from '../guards/principal.js';

const MAX_ENTRIES = 10_000;
/** A cached principal is re-derived at least this often, so plan changes apply within the directory's TTL. */
const MAX_AGE_MS = 30_000;

/**
 * Tokens whose signature and claims were verified recently and whose id was found live in Postgres (JwtStrategy),
 * keyed by the exact Authorization header, so a client that reuses its token (every client does) skips the HMAC,
 * the JSON parsing and the database round trip. A hit still honours the token's expiry and is checked against
 * revocations by the caller. Presenting a cached token requires knowing that exact token, so the cache grants
 * nothing a verification would not.
 */
@Injectable()
export class VerifiedTokenCache {
  private readonly entries = new Map<string, { principal: Principal; validUntil: number }>();

  get(token: string, now = Date.now()): Principal | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.validUntil <= now) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.principal;
  }

  /** `expiresAt` is the token's `exp` in epoch ms, or undefined for a token without expiry. */
  set(token: string, principal: Principal, expiresAt: number | undefined, now = Date.now()): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(token, { principal, validUntil: Math.min(expiresAt ?? Infinity, now + MAX_AGE_MS) });
  }
}
