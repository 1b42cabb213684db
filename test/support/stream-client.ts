import WebSocket from 'ws';

export interface StreamFrame {
  channel: string;
  subId?: number;
  seq?: number;
  cursor?: { block: number; index: number };
  eventId?: string;
  data?: unknown;
}

/** A bare `ws` client of `GET /ws`, as a trader's bot would be: every frame it receives, and how it was closed. */
export class StreamClient {
  readonly frames: StreamFrame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly opened: Promise<void>;
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as StreamFrame);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    this.opened = new Promise((resolve) => socket.once('open', () => resolve()));
  }

  static connect(url: string, headers: Record<string, string> = {}): StreamClient {
    return new StreamClient(new WebSocket(url, { headers }));
  }

  /** Sends once the upgrade is answered (a refused connection is opened, then closed with its code). */
  async send(message: unknown): Promise<void> {
    await this.opened;
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The frames received so far once `count` of them match, in order of arrival. */
  async waitFor(count: number, match: (f: StreamFrame) => boolean = () => true, timeoutMs = 15_000): Promise<StreamFrame[]> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.filter(match);
      if (found.length >= count) return found;
      const left = until - Date.now();
      if (left <= 0) throw new Error(`${found.length} of ${count} frames after ${timeoutMs} ms; got ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Sends a message and answers the next frame of `channel`. */
  async request(message: unknown, channel: string): Promise<StreamFrame> {
    const before = this.frames.filter((f) => f.channel === channel).length;
    await this.send(message);
    return (await this.waitFor(before + 1, (f) => f.channel === channel))[before]!;
  }

  close(): void {
    this.socket.close();
  }
}
