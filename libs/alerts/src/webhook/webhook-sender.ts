import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { Agent, errors, request } from 'undici';
import { outcomeOfStatus, parseRetryAfter } from './webhook-response.js';
import { isLoopbackAddress, refusedAddressReason, refusedUrlReason } from './ssrf-guard.js';

export interface WebhookAttemptResult {
  /** 2xx | 408, 409, 425, 429, 5xx, timeouts, transport errors | any other status, a refused address | 410. */
  outcome: 'delivered' | 'retryable' | 'permanent' | 'gone';
  statusCode: number | null;
  durationMs: number;
  /** Why it did not deliver, e.g. `HTTP 503`, `timeout: no response within 15000 ms`, `connect timeout`, `refused: loopback address 127.0.0.1`. */
  error: string | null;
  /** The first 2 KB of the answer, as UTF-8. */
  responseBody: string | null;
  /** From `Retry-After` on a retryable status (408, 409, 425, 429, 5xx). */
  retryAfterMs: number | null;
}

export type AddressLookup = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

export interface WebhookSenderOptions {
  /** The test-only WEBHOOK_ALLOW_LOOPBACK: loopback receivers become reachable, and `http:` for them only. */
  allowLoopback: boolean;
  /** Default 5000. */
  connectTimeoutMs?: number;
  /** The whole attempt, from the first byte sent to the answer's headers; default 15000. */
  requestTimeoutMs?: number;
  /** How host names resolve; the system resolver unless a test gives its own. */
  lookup?: AddressLookup;
}

const RESPONSE_BYTES_KEPT = 2048;
// Above MAX_IN_FLIGHT_PER_ENDPOINT so the per-endpoint semaphore, not the pool, is what limits a receiver.
const CONNECTIONS_PER_ORIGIN = 16;

class RefusedAddressError extends Error {}

const systemLookup: AddressLookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/**
 * POSTs one delivery. The receiver's address is checked where the connection is made: the host name is
 * resolved here, EVERY address it answers must be allowed (a name with one public and one private address
 * is refused, since which one a connection would use is not ours to predict), and the socket goes to an
 * address that was checked (pinned: no second lookup can swap in another). The scheme and IP-literal hosts
 * are checked before anything is opened. TLS still names the host (SNI and certificate check). Redirects
 * are never followed. Connections are kept alive and reused per origin.
 */
export class WebhookSender {
  private readonly agent: Agent;
  /** Plain `http:` (only with allowLoopback): every address a name resolves to must be loopback. */
  private readonly loopbackAgent: Agent;
  private readonly requestTimeoutMs: number;

  constructor(private readonly options: WebhookSenderOptions) {
    this.requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
    const resolveHost = options.lookup ?? systemLookup;
    // net/tls call this instead of dns.lookup; with autoSelectFamily (Node's default) they ask for all addresses.
    const lookupRefusing =
      (refused: (address: string) => string | null): LookupFunction =>
      (hostname, opts, callback) => {
        resolveHost(hostname).then(
          (addresses) => {
            if (addresses.length === 0)
              return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
            for (const a of addresses) {
              const reason = refused(a.address);
              if (reason) return callback(new RefusedAddressError(`refused: ${hostname} resolves to ${reason}`), '', 4);
            }
            if (opts.all)
              return (callback as unknown as (e: null, all: Array<{ address: string; family: number }>) => void)(null, addresses);
            callback(null, addresses[0]!.address, addresses[0]!.family);
          },
          (error: Error) => callback(error, '', 4),
        );
      };
    const agent = (lookup: LookupFunction) =>
      new Agent({
        connections: CONNECTIONS_PER_ORIGIN,
        keepAliveTimeout: 30_000,
        connect: { lookup, timeout: Math.min(options.connectTimeoutMs ?? 5_000, this.requestTimeoutMs) },
      });
    this.agent = agent(lookupRefusing((address) => refusedAddressReason(address, options.allowLoopback)));
    this.loopbackAgent = agent(
      lookupRefusing((address) => (isLoopbackAddress(address) ? null : `${address}, not loopback (http is allowed only to loopback)`)),
    );
  }

  async send(url: string, body: string, headers: Record<string, string>): Promise<WebhookAttemptResult> {
    const started = performance.now();
    const done = (r: Omit<WebhookAttemptResult, 'durationMs'>): WebhookAttemptResult => ({
      ...r,
      durationMs: Math.round(performance.now() - started),
    });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return done({ outcome: 'permanent', statusCode: null, error: `refused: not a URL: ${url}`, responseBody: null, retryAfterMs: null });
    }
    const refused = refusedUrlReason(target, this.options.allowLoopback);
    if (refused) return done({ outcome: 'permanent', statusCode: null, error: refused, responseBody: null, retryAfterMs: null });
    try {
      const res = await request(target, {
        method: 'POST',
        body,
        headers,
        dispatcher: target.protocol === 'http:' ? this.loopbackAgent : this.agent,
        signal: AbortSignal.timeout(this.requestTimeoutMs),
        headersTimeout: this.requestTimeoutMs,
        bodyTimeout: this.requestTimeoutMs,
      });
      const responseBody = await firstBytes(res.body);
      const outcome = outcomeOfStatus(res.statusCode);
      // A receiver that says when to come back is heard on any status that is retried, not only 429 and 503.
      const retryAfter = outcome === 'retryable' ? parseRetryAfter(headerValue(res.headers['retry-after']), Date.now()) : null;
      let error: string | null = null;
      if (outcome !== 'delivered') {
        const location = headerValue(res.headers.location);
        error =
          res.statusCode >= 300 && res.statusCode < 400
            ? `redirect not followed (${res.statusCode}${location ? ` to ${location}` : ''})`
            : `HTTP ${res.statusCode}`;
      }
      return done({ outcome, statusCode: res.statusCode, error, responseBody, retryAfterMs: retryAfter });
    } catch (error) {
      return done({ ...describeFailure(error as Error, this.requestTimeoutMs), statusCode: null, responseBody: null, retryAfterMs: null });
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.agent.close(), this.loopbackAgent.close()]);
  }
}

function headerValue(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/**
 * Reads at most RESPONSE_BYTES_KEPT bytes of the answer and drops the rest of it (the connection goes
 * with it). The status has already decided the outcome, so a body that breaks off or stalls keeps what
 * arrived rather than turning a delivered attempt into a failed one.
 */
async function firstBytes(stream: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_BYTES_KEPT) break;
    }
  } catch {
    // kept: what arrived before the body failed
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_BYTES_KEPT).toString('utf8');
}

/**
 * A failure without an answer. A refused resolved address may change with DNS, so like any transport
 * error it is retried; the attempt records why.
 */
function describeFailure(error: Error, timeoutMs: number): { outcome: 'retryable'; error: string } {
  const cause = (error as { cause?: Error }).cause;
  if (error instanceof RefusedAddressError || cause instanceof RefusedAddressError)
    return { outcome: 'retryable', error: (cause instanceof RefusedAddressError ? cause : error).message };
  if (error instanceof errors.ConnectTimeoutError || cause instanceof errors.ConnectTimeoutError)
    return { outcome: 'retryable', error: 'connect timeout' };
  if (error.name === 'TimeoutError' || error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError) {
    return { outcome: 'retryable', error: `timeout: no response within ${timeoutMs} ms` };
  }
  const code = (error as { code?: string }).code ?? (cause as { code?: string } | undefined)?.code;
  return { outcome: 'retryable', error: `transport error: ${code ? `${code} ` : ''}${cause?.message ?? error.message}` };
}
