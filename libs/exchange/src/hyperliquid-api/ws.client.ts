import WebSocket from 'ws';

export interface WsClientOptions {
  /** A `{"method":"ping"}` this often; the server drops a connection that sends nothing for 60 s. */
  pingIntervalMs?: number;
  /** No message at all within this time after a ping: the connection is dead, drop it and reconnect. */
  pongTimeoutMs?: number;
  /** Reconnect waits double from this on each failure in a row, up to `reconnectMaxMs` (±20 % jitter). */
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  connectTimeoutMs?: number;
}

export type WsSubscription = { type: string } & Record<string, unknown>;

export type WsClientState = 'connecting' | 'open' | 'reconnecting' | 'stopped';

export interface WsStateChange {
  state: WsClientState;
  /** Connections that failed or dropped since the last `resetBackoff()`. */
  attempt: number;
  delayMs?: number;
  reason?: string;
}

export interface WsClientHandlers {
  /** Called once the subscriptions have been (re)sent on a new connection. */
  onOpen?(): void;
  onMessage?(text: string): void;
  onState?(change: WsStateChange): void;
}

const DEFAULTS: Required<WsClientOptions> = {
  pingIntervalMs: 50_000,
  pongTimeoutMs: 15_000,
  reconnectBaseMs: 500,
  reconnectMaxMs: 30_000,
  connectTimeoutMs: 10_000,
};

/** Same subscription, same key, whatever the order its fields were written in. */
const subscriptionKey = (subscription: WsSubscription): string =>
  JSON.stringify(
    Object.keys(subscription)
      .sort()
      .map((key) => [key, subscription[key]]),
  );

/**
 * One websocket to the Hyperliquid API that stays up: it re-connects after any drop with capped
 * exponential backoff, re-sends every subscription on each new connection, and keeps the connection
 * alive (and notices a dead one) with the API's JSON ping.
 */
export class HyperliquidWsClient {
  private readonly options: Required<WsClientOptions>;
  private readonly subscriptions = new Map<string, WsSubscription>();
  private socket: WebSocket | null = null;
  private stopped = true;
  private failures = 0;
  private reconnectTimer?: NodeJS.Timeout;
  private pingTimer?: NodeJS.Timeout;
  private pongTimer?: NodeJS.Timeout;
  private lastError?: string;
  private socketClosed?: Promise<void>;

  constructor(
    readonly url: string,
    options: WsClientOptions = {},
    private readonly handlers: WsClientHandlers = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  get isOpen(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  subscribe(subscription: WsSubscription): void {
    const key = subscriptionKey(subscription);
    if (this.subscriptions.has(key)) return;
    this.subscriptions.set(key, subscription);
    this.send({ method: 'subscribe', subscription });
  }

  unsubscribe(subscription: WsSubscription): void {
    if (!this.subscriptions.delete(subscriptionKey(subscription))) return;
    this.send({ method: 'unsubscribe', subscription });
  }

  /** Drops the connection (the owner found it unusable); the next one comes after the current backoff. */
  reconnect(reason: string): void {
    this.lastError = reason;
    this.socket?.terminate();
  }

  /** The owner saw the connection do its job: the next drop reconnects after the base delay again. */
  resetBackoff(): void {
    this.failures = 0;
  }

  /** Closes for good; resolves once the socket is closed. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.stopHeartbeat();
    const closed = this.socketClosed;
    this.socket?.terminate();
    await closed;
    this.handlers.onState?.({ state: 'stopped', attempt: this.failures });
  }

  private connect(): void {
    this.handlers.onState?.({ state: 'connecting', attempt: this.failures });
    const socket = new WebSocket(this.url, { handshakeTimeout: this.options.connectTimeoutMs });
    this.socket = socket;
    this.socketClosed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('open', () => {
      for (const subscription of this.subscriptions.values()) socket.send(JSON.stringify({ method: 'subscribe', subscription }));
      this.startHeartbeat(socket);
      this.handlers.onState?.({ state: 'open', attempt: this.failures });
      this.handlers.onOpen?.();
    });
    socket.on('message', (data) => {
      clearTimeout(this.pongTimer);
      this.pongTimer = undefined;
      this.handlers.onMessage?.(data.toString());
    });
    // 'close' always follows 'error'; the reason is reported there.
    socket.on('error', (error) => {
      this.lastError = error.message;
    });
    socket.on('close', (code, reason) => {
      if (this.socket === socket) this.socket = null;
      this.stopHeartbeat();
      if (this.stopped) return;
      const why = this.lastError ?? (reason.length ? `closed ${code} ${reason.toString()}` : `closed ${code}`);
      this.lastError = undefined;
      this.scheduleReconnect(why);
    });
  }

  private scheduleReconnect(reason: string): void {
    const { reconnectBaseMs, reconnectMaxMs } = this.options;
    const base = Math.min(reconnectMaxMs, reconnectBaseMs * 2 ** this.failures);
    // Jitter keeps many clients (one per tracked address) from reconnecting in lockstep after an outage.
    const delayMs = Math.round(Math.min(reconnectMaxMs, base * (0.8 + 0.4 * Math.random())));
    this.failures++;
    this.handlers.onState?.({ state: 'reconnecting', attempt: this.failures, delayMs, reason });
    this.reconnectTimer = setTimeout(() => {
      if (!this.stopped) this.connect();
    }, delayMs);
  }

  private startHeartbeat(socket: WebSocket): void {
    const { pingIntervalMs, pongTimeoutMs } = this.options;
    this.pingTimer = setInterval(() => {
      if (socket.readyState !== WebSocket.OPEN) return;
      socket.send(JSON.stringify({ method: 'ping' }));
      this.pongTimer ??= setTimeout(() => {
        this.lastError = `no answer to ping within ${pongTimeoutMs} ms`;
        socket.terminate();
      }, pongTimeoutMs);
    }, pingIntervalMs);
  }

  private stopHeartbeat(): void {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.pingTimer = undefined;
    this.pongTimer = undefined;
  }

  private send(message: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }
}
