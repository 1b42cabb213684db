import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/**
 * A real S3-compatible server for the tests (s3rver: the S3 REST API over a folder), on a free port with
 * one empty bucket. It checks a pre-signed URL's expiry but not its SigV4 signature.
 */
export class S3TestServer {
  private constructor(
    private readonly server: S3rver,
    private readonly directory: string,
    readonly endpoint: string,
    readonly bucket: string,
  ) {}

  static async start(bucket = 'tidewatch-exports'): Promise<S3TestServer> {
    const directory = mkdtempSync(join(tmpdir(), 'tidewatch-s3-'));
    const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
    const { port } = await server.run();
    return new S3TestServer(server, directory, `http://127.0.0.1:${port}`, bucket);
  }

  /** Settings that point the service's export store at this server (s3rver's fixed development keys). */
  get env(): Record<string, string> {
    return {
      EXPORT_STORE: 's3',
      S3_ENDPOINT: this.endpoint,
      S3_BUCKET: this.bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    };
  }

  private closed = false;

  /** Stops the server and deletes its folder; a second call does nothing (a test may stop it early). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.server.close();
    rmSync(this.directory, { recursive: true, force: true });
  }
}
