import type { ParseIssue } from '../parse/parse-result.js';
import type { AddressStateChange, UserActivity } from './hyperliquid-api.types.js';
import { parseUserChannelMessage, USER_CHANNELS } from './user-channel.parser.js';
import { HyperliquidWsClient, type WsClientOptions, type WsStateChange } from './ws.client.js';

/** What a session hands to its feed. */
export interface SessionSink {
  accept(address: string, activity: UserActivity): void;
  report(issue: ParseIssue): void;
  state(change: AddressStateChange): void;
  /** Takes the address's history from its cursors up to now; rejects if it cannot. */
  backfill(address: string, signal: AbortSignal): Promise<void>;
}

/** The real server greets each connection with this plain-text line. */
const GREETING = 'Websocket connection established.';

const excerpt = (text: string): string => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text);

/**
 * One tracked address on its own websocket. A connection per address because `userEvents` frames do not
 * name their wallet, so only the connection can. On every (re)connection the subscriptions are re-sent,
 * then the info API backfills from the address's cursors while live frames are held back; the held frames
 * follow the backfill. So events reach the feed in an order where nothing before an address's cursor is
 * still missing, which is what lets a restart resume from the stored cursors.
 */
export class AddressSession {
  private readonly ws: HyperliquidWsClient;
  private phase: 'down' | 'backfilling' | 'live' = 'down';
  private held: string[] = [];
  private backfillAbort?: AbortController;

  constructor(
    readonly address: string,
    wsUrl: string,
    wsOptions: WsClientOptions,
    private readonly sink: SessionSink,
  ) {
    this.ws = new HyperliquidWsClient(wsUrl, wsOptions, {
      onOpen: () => this.onOpen(),
      onMessage: (text) => this.onMessage(text),
      onState: (change) => this.onWsState(change),
    });
    for (const type of USER_CHANNELS) this.ws.subscribe({ type, user: address });
  }

  start(): void {
    this.ws.start();
  }

  async stop(): Promise<void> {
    this.backfillAbort?.abort();
    await this.ws.stop();
  }

  private onWsState({ state, attempt, delayMs, reason }: WsStateChange): void {
    if (state === 'open') return; // onOpen reports the backfill that follows
    this.phase = 'down';
    this.held = [];
    this.backfillAbort?.abort();
    this.sink.state({ address: this.address, state, ...(state === 'reconnecting' ? { attempt, delayMs, reason } : {}) });
  }

  private onOpen(): void {
    this.phase = 'backfilling';
    this.held = [];
    this.sink.state({ address: this.address, state: 'backfilling' });
    const abort = new AbortController();
    this.backfillAbort = abort;
    this.sink.backfill(this.address, abort.signal).then(
      () => {
        if (abort.signal.aborted) return;
        this.phase = 'live';
        const held = this.held;
        this.held = [];
        for (const text of held) this.handle(text);
        this.ws.resetBackoff();
        this.sink.state({ address: this.address, state: 'live' });
      },
      (error: Error) => {
        // Held frames are dropped with the connection: the next connection's backfill covers them.
        if (!abort.signal.aborted) this.ws.reconnect(`backfill failed: ${error.message}`);
      },
    );
  }

  private onMessage(text: string): void {
    if (text === GREETING) return;
    if (this.phase === 'backfilling') this.held.push(text);
    else this.handle(text);
  }

  private handle(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.sink.report({ source: { stream: `ws ${this.address}` }, path: '', message: `not JSON: ${excerpt(text)}` });
      return;
    }
    const channel = (value as { channel?: unknown } | null)?.channel;
    const source = { stream: `ws ${typeof channel === 'string' ? `${channel} ` : ''}${this.address}` };
    const result = parseUserChannelMessage(value, source);
    if (!result.ok) {
      this.sink.report(result.error);
      return;
    }
    for (const issue of result.issues) this.sink.report(issue);
    const message = result.value;
    if (message.kind === 'error') this.sink.report({ source, path: '', message: `server error: ${message.message}` });
    else if (message.kind === 'activity') {
      if (message.user !== null && message.user !== this.address) {
        this.sink.report({ source, path: 'data.user', message: `frame for ${message.user} on the connection of ${this.address}` });
      } else {
        this.sink.accept(this.address, message.activity);
      }
    }
  }
}
