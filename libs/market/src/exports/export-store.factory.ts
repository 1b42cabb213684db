import type { AppConfig } from '#config';
import type { SigningKeys } from '#database';
import { ExportLinkSigner } from './export-link.signer.js';
import type { ExportStore } from './export-store.js';
import { LocalDiskExportStore } from './local-disk.export-store.js';
import { S3ExportStore } from './s3.export-store.js';

/** The store EXPORT_STORE names, from its settings (validated at start, see AppConfig). */
export function exportStoreFor(config: AppConfig, keys: SigningKeys): ExportStore {
  if (config.EXPORT_STORE === 'local') return new LocalDiskExportStore(config.EXPORT_DIR, new ExportLinkSigner(keys.exportLinks));
  const credentials =
    config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
      ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
      : undefined;
  return new S3ExportStore({
    bucket: config.S3_BUCKET!,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    credentials,
    forcePathStyle: config.S3_FORCE_PATH_STYLE ?? config.S3_ENDPOINT !== undefined,
  });
}
