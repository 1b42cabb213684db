import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import Big from 'big.js';
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { BearerAuthGuard, RateLimiterService, UsageMeterService, WsTicketService, type Principal } from '#auth';
import { AppConfig } from '#config';
import { InvalidInputError } from '#errors';
import type { StreamEvent } from '../channels/stream-event.js';
import { parseSubscription, passes } from '../channels/subscription.js';
import { StreamEventsSubscriber } from '../fanout/stream-events.subscriber.js';
import { STREAM_CLOSE, type StreamClose } from './stream-close-codes.js';
import { StreamConnectionsRegistry } from './stream-connections.registry.js';
import { StreamSession, type StreamSocket } from './stream-session.js';

const OPEN = 1;

/**
 * The websocket protocol of `GET /ws` (docs/product.md, "Websocket streams"): admission (token or ticket,
 * plan, connection cap), the client's messages, the idle timeout, and each committed event sent to every
 * subscription it passes, numbered per subscription.
 */
@Injectable()
export class StreamSessionsService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(StreamSessionsService.name);
  private readonly sessions = new Map<StreamSocket, StreamSession>();

  constructor(
    private readonly bearer: BearerAuthGuard,
    private readonly tickets: WsTicketService,
    private readonly connections: StreamConnectionsRegistry,
    private readonly events: StreamEventsSubscriber,
    private readonly config: AppConfig,
    private readonly limiter: RateLimiterService,
    private readonly meter: UsageMeterService,
  ) {}

  onModuleInit(): void {
    this.events.listen((events) => this.fanOut(events));
  }

  beforeApplicationShutdown(): void {
    for (const session of this.sessions.values()) this.refuse(session, STREAM_CLOSE.draining);
  }

  open(socket: StreamSocket, request: IncomingMessage): Promise<boolean> {
    const session = new StreamSession(randomUUID(), socket);
    this.sessions.set(socket, session);
    session.ready = this.admit(session, request).catch((error: Error) => {
      this.logger.warn(`websocket admission failed: ${error.message}`);
      return this.refuse(session, STREAM_CLOSE.unavailable);
    });
    return session.ready;
  }

  async close(socket: StreamSocket): Promise<void> {
    const session = this.sessions.get(socket);
    if (!session) return;
    this.sessions.delete(socket);
    clearTimeout(session.idleTimer);
    await this.connections.release(session.id).catch((error: Error) => this.logger.warn(`connection lease release: ${error.message}`));
  }

  async receive(socket: StreamSocket, raw: string): Promise<void> {
    const session = this.sessions.get(socket);
    if (!session || !(await session.ready)) return;
    session.idleTimer?.refresh();
    try {
      const refusal = await this.charge(session.principal!);
      if (refusal) return send(session, { channel: 'error', data: refusal });
      this.handle(session, parseMessage(raw));
    } catch (error) {
      if (error instanceof InvalidInputError)
        return send(session, { channel: 'error', data: { field: error.field, message: error.message } });
      // Redis away while counting the message: the client is told to retry, in the protocol's own shape.
      this.logger.warn(`websocket message failed: ${(error as Error).message}`);
      send(session, {
        channel: 'error',
        data: { error: 'unavailable', message: 'The message could not be handled now; retry in a few seconds.' },
      });
    }
  }

  /**
   * A client message counts like a request: one hit of the plan's per-minute limit, then one usage token. A
   * message past either is answered with an error frame and not carried out; the connection stays.
   */
  private async charge(user: Principal): Promise<Record<string, unknown> | null> {
    const decision = await this.limiter.hit(user.consumerId, user.limits.requestsPerMinute);
    if (!decision.allowed) {
      const retryAfter = Math.max(1, Math.ceil((decision.windowEnd - Date.now()) / 1000));
      return {
        error: 'rate_limit_exceeded',
        message: `Rate limit of ${user.limits.requestsPerMinute} requests and messages per minute exceeded; retry after ${retryAfter} s.`,
        retryAfter,
      };
    }
    const { allowed, period } = await this.meter.spend(user.limits);
    if (allowed) return null;
    return {
      error: 'usage_limit_exceeded',
      message: `All ${user.limits.usageLimit} usage tokens of this ${user.limits.plan.usagePeriod} are spent; they reset at ${period.end.toISOString()}.`,
      retryAfter: Math.max(1, Math.ceil((period.end.getTime() - Date.now()) / 1000)),
    };
  }

  private async admit(session: StreamSession, request: IncomingMessage): Promise<boolean> {
    const ticket = new URL(request.url ?? '/', 'ws://localhost').searchParams.get('ticket');
    const principal = ticket === null ? await this.bearer.principalOfUpgrade(request) : await this.tickets.redeem(ticket);
    if (!principal) return this.refuse(session, STREAM_CLOSE.unauthorized);
    const plan = principal.limits.plan;
    if (!plan.websocketStreams) return this.refuse(session, STREAM_CLOSE.planWithoutStreams);
    if (!(await this.connections.admit(principal.consumerId, session.id, plan.websocketConnections))) {
      return this.refuse(session, STREAM_CLOSE.tooManyConnections);
    }
    // The socket may have gone while Redis answered: its place is given back at once.
    if (!this.sessions.has(session.socket)) {
      await this.connections.release(session.id);
      return false;
    }
    session.principal = principal;
    session.idleTimer = setTimeout(() => this.refuse(session, STREAM_CLOSE.idle), this.config.WS_IDLE_TIMEOUT_MS);
    session.idleTimer.unref();
    return true;
  }

  private refuse(session: StreamSession, close: StreamClose): false {
    clearTimeout(session.idleTimer);
    session.socket.close(close.code, close.reason);
    return false;
  }

  private handle(session: StreamSession, message: Record<string, unknown>): void {
    switch (message.method) {
      case 'ping':
        return send(session, { channel: 'pong', data: { time: Date.now() } });
      case 'subscribe':
        return this.subscribe(session, message.subscription);
      case 'unsubscribe':
        return unsubscribe(session, message.subId);
      default:
        throw new InvalidInputError('method', 'method must be one of subscribe, unsubscribe, ping');
    }
  }

  private subscribe(session: StreamSession, raw: unknown): void {
    const subscription = parseSubscription(raw);
    const cap = session.principal!.limits.plan.websocketSubscriptions;
    if (session.subscriptions.size >= cap) {
      throw new InvalidInputError('subscription', `a connection holds at most ${cap} subscriptions on this plan; unsubscribe one first`);
    }
    const subId = session.nextSubId++;
    session.subscriptions.set(subId, { ...subscription, subId, seq: 0 });
    send(session, { channel: 'subscriptionResponse', data: { method: 'subscribe', subId, subscription: subscription.normalized } });
  }

  private fanOut(events: StreamEvent[]): void {
    const frames = events.map(frameOf);
    for (const session of this.sessions.values()) {
      if (session.subscriptions.size === 0 || session.socket.readyState !== OPEN) continue;
      for (const sub of session.subscriptions.values()) {
        for (const frame of frames) {
          if (frame.event.channel !== sub.channel || !passes(sub.filters, frame.event, frame.notional)) continue;
          session.socket.send(`{"channel":"${sub.channel}","subId":${sub.subId},"seq":${++sub.seq},${frame.tail}`);
        }
      }
    }
  }
}

/** An event's frame after the per-subscription fields, serialised once for every subscriber. */
function frameOf(event: StreamEvent) {
  let notional: Big | undefined;
  return {
    event,
    notional: () => (notional ??= new Big(event.notionalUsd)),
    tail: `"cursor":${JSON.stringify(event.cursor)},"eventId":${JSON.stringify(event.eventId)},"data":${JSON.stringify(event.data)}}`,
  };
}

function parseMessage(raw: string): Record<string, unknown> {
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    throw new InvalidInputError('message', 'message is not valid JSON');
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new InvalidInputError('message', 'message must be a JSON object with a "method"');
  }
  return message as Record<string, unknown>;
}

function unsubscribe(session: StreamSession, subId: unknown): void {
  if (typeof subId !== 'number' || !session.subscriptions.delete(subId)) {
    throw new InvalidInputError('subId', `subId ${JSON.stringify(subId)} is not a subscription of this connection`);
  }
  send(session, { channel: 'subscriptionResponse', data: { method: 'unsubscribe', subId } });
}

function send(session: StreamSession, frame: Record<string, unknown>): void {
  if (session.socket.readyState === OPEN) session.socket.send(JSON.stringify(frame));
}
