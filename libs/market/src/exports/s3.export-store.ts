import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import { EXPORT_LINK_TTL_SECONDS } from './export-link.signer.js';
import { EXPORT_KEY, exportContentType, ExportStore, type SignedLink } from './export-store.js';

export interface S3ExportStoreOptions {
  bucket: string;
  region: string;
  /** An S3-compatible server's address (MinIO, ...); omitted: AWS itself. */
  endpoint?: string;
  /** Omitted: the AWS SDK's own chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Bucket in the path rather than the host name: what most S3-compatible servers need. */
  forcePathStyle: boolean;
}

/**
 * Export files in an S3 bucket (AWS or any S3-compatible server): written by a streamed multipart
 * upload (a file of any size, never held whole in memory), downloaded straight from the store through a
 * URL pre-signed by the AWS SDK for 120 seconds.
 */
export class S3ExportStore extends ExportStore {
  private readonly client: S3Client;

  constructor(private readonly options: S3ExportStoreOptions) {
    super();
    const config: S3ClientConfig = { region: options.region, forcePathStyle: options.forcePathStyle };
    if (options.endpoint) config.endpoint = options.endpoint;
    if (options.credentials) config.credentials = options.credentials;
    this.client = new S3Client(config);
  }

  async has(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.checked(key) }));
      return true;
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
      throw error;
    }
  }

  async write(key: string, content: Readable): Promise<void> {
    // An upload that fails leaves no object: the store publishes a multipart upload only when it completes.
    await new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: this.checked(key), Body: content, ContentType: exportContentType(key) },
    }).done();
  }

  async link(key: string, nowMs = Date.now()): Promise<SignedLink> {
    const url = await getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.options.bucket, Key: this.checked(key) }), {
      expiresIn: EXPORT_LINK_TTL_SECONDS,
      signingDate: new Date(nowMs),
    });
    return { url, expiresAt: new Date(Math.floor(nowMs / 1000) * 1000 + EXPORT_LINK_TTL_SECONDS * 1000).toISOString() };
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.checked(key) }));
  }

  private checked(key: string): string {
    if (!EXPORT_KEY.test(key)) throw new Error(`not an export key: ${key}`);
    return key;
  }
}
