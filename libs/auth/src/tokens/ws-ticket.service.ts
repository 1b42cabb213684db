import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { createHash, randomBytes } from 'node:crypto';
import { AppConfig } from '#config';
import { PlanLimitError } from '#errors';
import { REDIS, RedisKeys } from '#runtime';
import { ConsumerDirectoryService } from '../consumers/consumer-directory.service.js';
import type { Principal } from '../guards/principal.js';
import { RevokedTokensService } from './revoked-tokens.service.js';

export interface IssuedWsTicket {
  ticket: string;
  expiresAt: string;
}

interface StoredTicket {
  consumerId: number;
  tokenId: string;
  expiresAt?: number;
}

const TICKET = /^[A-Za-z0-9_-]{43}$/;

/**
 * Single-use tickets for browsers, which cannot set an Authorization header on a websocket: a long-lived
 * token never goes in a URL, a ticket lives WS_TICKET_TTL_SECONDS and is spent by the first connection
 * that presents it. Redis holds only the ticket's hash, so its keys do not grant a connection.
 */
@Injectable()
export class WsTicketService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly config: AppConfig,
    private readonly revoked: RevokedTokensService,
    private readonly directory: ConsumerDirectoryService,
  ) {}

  async issue(principal: Principal): Promise<IssuedWsTicket> {
    const plan = principal.limits.plan;
    if (!plan.websocketStreams) {
      throw new PlanLimitError('websocketStreams', plan.id, 0, `The ${plan.name} plan has no websocket streams; Tier 4 has them.`);
    }
    const ticket = randomBytes(32).toString('base64url');
    const stored: StoredTicket = { consumerId: principal.consumerId, tokenId: principal.tokenId, expiresAt: principal.expiresAt };
    const ttl = this.config.WS_TICKET_TTL_SECONDS;
    await this.redis.set(this.key(ticket), JSON.stringify(stored), 'EX', ttl);
    return { ticket, expiresAt: new Date(Date.now() + ttl * 1000).toISOString() };
  }

  /** The principal a ticket was issued to, the first time it is presented; null when unknown, used, expired or its token revoked since. */
  async redeem(ticket: string): Promise<Principal | null> {
    if (!TICKET.test(ticket)) return null;
    const text = await this.redis.getdel(this.key(ticket));
    if (text === null) return null;
    const { consumerId, tokenId, expiresAt } = JSON.parse(text) as StoredTicket;
    if (this.revoked.isRevoked(tokenId) || (expiresAt !== undefined && expiresAt <= Date.now())) return null;
    const limits = await this.directory.lookup(consumerId);
    return limits ? { consumerId, tokenId, limits, expiresAt } : null;
  }

  private key(ticket: string): string {
    return this.keys.key('ws-ticket', createHash('sha256').update(ticket).digest('base64url'));
  }
}
