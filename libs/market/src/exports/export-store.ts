import type { Readable } from 'node:stream';

export interface SignedLink {
  /** Where the client downloads the file: a path on this api (local store) or the store's own URL (S3). */
  url: string;
  expiresAt: string;
}

/**
 * Where export files are kept and how a client gets one: a signed link that works for 120 seconds
 * without the bearer token. One adapter per kind of store, chosen by EXPORT_STORE.
 */
export abstract class ExportStore {
  abstract has(key: string): Promise<boolean>;
  /** Writes the file from `content`; another request writing the same key at once writes the same bytes. */
  abstract write(key: string, content: Readable): Promise<void>;
  abstract link(key: string, nowMs?: number): Promise<SignedLink>;
  /** Deletes the file; one already gone is no error. */
  abstract remove(key: string): Promise<void>;
}

/** Keys are built by the export service from fixed names, a coin (coinKey) and a height: nothing else is accepted. */
export const EXPORT_KEY = /^[a-z0-9-]+\/[A-Za-z0-9_%-]+\/[0-9]+\.(json|csv)$/;

/**
 * A coin as one segment of a key: percent-encoded, dots and all, so no market name (`xyz:TSLA`, or one
 * with a quote or a slash) can make a path of its own or leave the store's folder.
 */
export const coinKey = (coin: string): string =>
  encodeURIComponent(coin).replace(/[.!~*'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export const exportContentType = (key: string): string =>
  key.endsWith('.csv') ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8';
