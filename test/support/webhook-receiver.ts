import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received, as text. */
  raw: string;
  body: Record<string, unknown>;
  receivedAt: number;
}

/** Answers one request: a status with optional headers and body, or `hang` to never answer. */
export type ReceiverAnswer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/**
 * A webhook receiver on loopback, as a consumer would run one: records every request it gets and
 * answers as the test tells it (per path), 200 by default.
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  private readonly answers = new Map<string, Array<ReceiverAnswer>>();
  private readonly hanging = new Set<ServerResponse>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const receiver: WebhookReceiver = new WebhookReceiver(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const path = req.url ?? '/';
          receiver.received.push({
            path,
            headers: req.headers,
            raw,
            body: JSON.parse(raw) as Record<string, unknown>,
            receivedAt: Date.now(),
          });
          const queue = receiver.answers.get(path);
          const answer = queue && queue.length > 1 ? queue.shift()! : (queue?.[0] ?? { status: 200 });
          if (answer === 'hang') {
            receiver.hanging.add(res);
            return;
          }
          res.writeHead(answer.status, answer.headers ?? {});
          res.end(answer.body ?? '');
        });
      }),
    );
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** Answers for `path` in order; the last one repeats. */
  answer(path: string, ...answers: ReceiverAnswer[]): void {
    this.answers.set(path, answers);
  }

  on(path: string): ReceivedDelivery[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Waits until `path` has received at least `count` requests (or fails after `timeoutMs`). */
  async waitFor(path: string, count: number, timeoutMs = 20_000): Promise<ReceivedDelivery[]> {
    const until = Date.now() + timeoutMs;
    while (this.on(path).length < count) {
      if (Date.now() > until) throw new Error(`receiver got ${this.on(path).length} of ${count} requests on ${path}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return this.on(path);
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
