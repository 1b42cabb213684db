import type { Principal } from '#auth';
import type { StreamSubscription } from '../channels/subscription.js';

/** What a session needs of its websocket (the `ws` package's WebSocket). */
export interface StreamSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code: number, reason: string): void;
}

export interface ActiveSubscription extends StreamSubscription {
  subId: number;
  /** The seq of the last frame sent: frames of one subscription are numbered 1, 2, 3, ... without gaps. */
  seq: number;
}

/** One connection's state: who it is (once authenticated), its subscriptions, its idle timer. */
export class StreamSession {
  principal?: Principal;
  readonly subscriptions = new Map<number, ActiveSubscription>();
  nextSubId = 1;
  idleTimer?: NodeJS.Timeout;
  /** Settles true once the connection is admitted, false when it was refused (and closed). */
  ready!: Promise<boolean>;

  constructor(
    readonly id: string,
    readonly socket: StreamSocket,
  ) {}
}
