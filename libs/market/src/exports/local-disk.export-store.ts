import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { ForbiddenError, NotFoundError } from '#errors';
import { EXPORT_LINK_TTL_SECONDS, ExportLinkSigner } from './export-link.signer.js';
import { EXPORT_KEY, exportContentType, ExportStore, type SignedLink } from './export-store.js';

/** Path of the api route that serves the local store's files (ExportFilesController). */
export const EXPORT_FILES_PATH = '/exports/files';

export interface ExportFile {
  stream: ReadStream;
  contentType: string;
  /** The name a browser saves it under. */
  fileName: string;
}

/**
 * Export files on the local disk under EXPORT_DIR, written once (to a temporary name, then renamed, so a
 * reader never sees half a file) and served by the api at signed paths that expire.
 */
export class LocalDiskExportStore extends ExportStore {
  constructor(
    private readonly root: string,
    private readonly signer: ExportLinkSigner,
  ) {
    super();
  }

  async has(key: string): Promise<boolean> {
    return stat(this.path(key)).then(
      () => true,
      () => false,
    );
  }

  /** Writes the file from `content` unless another request wrote it first (the same key is the same content). */
  async write(key: string, content: Readable): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      await pipeline(content, createWriteStream(temporary) as Writable);
      await rename(temporary, path);
    } finally {
      await rm(temporary, { force: true });
    }
  }

  /** A path on this api, relative to its base address. */
  async link(key: string, nowMs = Date.now()): Promise<SignedLink> {
    const expires = Math.floor(nowMs / 1000) + EXPORT_LINK_TTL_SECONDS;
    const url = `${EXPORT_FILES_PATH}/${key.split('/').map(encodeURIComponent).join('/')}?expires=${expires}&signature=${this.signer.signature(key, expires)}`;
    return { url, expiresAt: new Date(expires * 1000).toISOString() };
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  /** The file behind a signed link; an expired, altered or foreign link is a ForbiddenError. */
  async open(key: string, expires: string, signature: string, nowMs = Date.now()): Promise<ExportFile> {
    const expiresAt = /^[0-9]{1,12}$/.test(expires) ? Number(expires) : NaN;
    if (!EXPORT_KEY.test(key) || !Number.isFinite(expiresAt) || !this.signer.verify(key, expiresAt, signature)) {
      throw new ForbiddenError('This download link is not valid: ask the export route for a new one');
    }
    if (expiresAt * 1000 < nowMs) throw new ForbiddenError('This download link has expired: ask the export route for a new one');
    const path = this.path(key);
    // A link outlives its file only if the folder was emptied by hand (retention waits for the links to lapse).
    if (!(await this.has(key))) throw new NotFoundError('This export file no longer exists: ask the export route for a new one');
    return { stream: createReadStream(path), contentType: exportContentType(key), fileName: key.replaceAll('/', '-') };
  }

  private path(key: string): string {
    if (!EXPORT_KEY.test(key)) throw new Error(`not an export key: ${key}`);
    return join(this.root, ...key.split('/'));
  }
}
