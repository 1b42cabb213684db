import { createHmac, timingSafeEqual, type BinaryLike } from 'node:crypto';

/** How long a download link works (the API contract: about 120 seconds). */
export const EXPORT_LINK_TTL_SECONDS = 120;

/**
 * Pre-signed download links: the HMAC of the file's key and the link's expiry, with the export links' own key
 * (SigningKeys.exportLinks). Whoever holds the link may download until it expires, without the bearer token, as
 * with an object store's pre-signed URL; changing any byte of the key, the expiry or the signature breaks it.
 */
export class ExportLinkSigner {
  constructor(private readonly key: BinaryLike) {}

  signature(key: string, expiresEpochSeconds: number): string {
    return createHmac('sha256', this.key).update(`${key}\n${expiresEpochSeconds}`).digest('hex');
  }

  /** Whether `signature` is this signer's for the key and expiry (compared in constant time). */
  verify(key: string, expiresEpochSeconds: number, signature: string): boolean {
    const expected = Buffer.from(this.signature(key, expiresEpochSeconds), 'hex');
    const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
