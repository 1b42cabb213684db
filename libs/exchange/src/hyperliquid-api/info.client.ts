import { setTimeout as sleep } from 'node:timers/promises';

export interface InfoClientOptions {
  /** Whole request, body included. */
  timeoutMs?: number;
  /** Tries per request, the first included; 429, 5xx, timeouts and transport errors are retried. */
  maxAttempts?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
}

export type InfoRequest = { type: string } & Record<string, unknown>;

/** A failed info request: the request type, the HTTP status (null for a timeout or transport error) and how often it was tried. */
export class HyperliquidInfoError extends Error {
  constructor(
    message: string,
    readonly requestType: string,
    readonly status: number | null,
    readonly attempts: number,
  ) {
    super(message);
    this.name = 'HyperliquidInfoError';
  }
}

const DEFAULTS: Required<InfoClientOptions> = { timeoutMs: 10_000, maxAttempts: 5, retryBaseMs: 500, retryMaxMs: 15_000 };

/** The first characters of a response body, so an error names what the server said without flooding a log line. */
const excerpt = (text: string): string => (text.length > 200 ? `${text.slice(0, 200)}...` : text);

/** Seconds or an HTTP date; null when absent or unreadable. */
function retryAfterMs(header: string | null, nowMs: number): number | null {
  if (header === null) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

/** POST /info of the public API (or a node's info server). Responses are returned as parsed JSON, unvalidated. */
export class HyperliquidInfoClient {
  private readonly options: Required<InfoClientOptions>;

  constructor(
    readonly url: string,
    options: InfoClientOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Fills of a wallet from `startTime` (inclusive, epoch ms); the API caps a response (2,000), so callers page on. */
  userFillsByTime(user: string, startTime: number, signal?: AbortSignal): Promise<unknown> {
    return this.request({ type: 'userFillsByTime', user, startTime, aggregateByTime: false }, signal);
  }

  userFunding(user: string, startTime: number, signal?: AbortSignal): Promise<unknown> {
    return this.request({ type: 'userFunding', user, startTime }, signal);
  }

  userNonFundingLedgerUpdates(user: string, startTime: number, signal?: AbortSignal): Promise<unknown> {
    return this.request({ type: 'userNonFundingLedgerUpdates', user, startTime }, signal);
  }

  /**
   * Sends one request, retrying with capped exponential backoff (a `Retry-After` lengthens the wait).
   * Other 4xx answers and a body that is not JSON fail at once: asking again would not change them.
   * An abort through `signal` ends the request and its waits with the signal's reason.
   */
  async request(body: InfoRequest, signal?: AbortSignal): Promise<unknown> {
    const { maxAttempts, timeoutMs } = this.options;
    let failure: HyperliquidInfoError | undefined;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      let waitAtLeast: number | null = null;
      try {
        const timeout = AbortSignal.timeout(timeoutMs);
        const response = await fetch(this.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        const text = await response.text();
        if (response.ok) return this.parseJson(body.type, text, attempt);
        failure = new HyperliquidInfoError(
          `info ${body.type}: HTTP ${response.status} ${excerpt(text)}`,
          body.type,
          response.status,
          attempt,
        );
        if (response.status !== 429 && response.status < 500) throw failure;
        waitAtLeast = retryAfterMs(response.headers.get('retry-after'), Date.now());
      } catch (error) {
        if (error instanceof HyperliquidInfoError) throw error;
        signal?.throwIfAborted();
        const timedOut = (error as Error).name === 'TimeoutError';
        const cause = timedOut ? `no answer within ${timeoutMs} ms` : describeTransportError(error);
        failure = new HyperliquidInfoError(`info ${body.type}: ${cause}`, body.type, null, attempt);
      }
      if (attempt < maxAttempts) await sleep(this.backoff(attempt, waitAtLeast), undefined, { signal });
    }
    throw new HyperliquidInfoError(`${failure!.message} (gave up after ${maxAttempts} attempts)`, body.type, failure!.status, maxAttempts);
  }

  private parseJson(type: string, text: string, attempt: number): unknown {
    try {
      return JSON.parse(text);
    } catch {
      throw new HyperliquidInfoError(`info ${type}: response is not JSON: ${excerpt(text)}`, type, 200, attempt);
    }
  }

  private backoff(attempt: number, waitAtLeast: number | null): number {
    const { retryBaseMs, retryMaxMs } = this.options;
    return Math.min(retryMaxMs, Math.max(retryBaseMs * 2 ** (attempt - 1), waitAtLeast ?? 0));
  }
}

/** fetch reports transport failures as "fetch failed" with the real reason in `cause`. */
function describeTransportError(error: unknown): string {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  const cause = err.cause?.code ?? err.cause?.message;
  return cause ? `${err.message} (${cause})` : String(err.message ?? error);
}
