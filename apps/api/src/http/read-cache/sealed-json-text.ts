import { createHash } from 'node:crypto';
import { JsonText } from '#database';

/**
 * JSON text sent to many requests (a read-cache answer), with its bytes and entity tag computed once:
 * express would convert a string body to bytes and hash it with SHA-1 for the ETag at every response,
 * which for a page of hundreds of kilobytes costs more than the rest of a cached answer's work.
 */
export class SealedJsonText extends JsonText {
  readonly bytes: Buffer;
  /** The weak tag express gives the same body by default (`W/"<length in hex>-<SHA-1, base64, 27 characters>"`), so conditional requests work as before. */
  readonly etag: string;

  constructor(text: string) {
    super(text);
    this.bytes = Buffer.from(text, 'utf8');
    this.etag = `W/"${this.bytes.length.toString(16)}-${createHash('sha1').update(this.bytes).digest('base64').substring(0, 27)}"`;
  }
}
