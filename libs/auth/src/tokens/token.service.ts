import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { SqlRunner } from '#database';
import { REDIS, RedisKeys } from '#runtime';
import { ApiTokenRepository, ApiTokenRow } from './api-token.repository.js';
import { revocationChannel } from './revocation-channel.js';

export interface IssuedToken {
  tokenId: string;
  token: string;
  expiresAt: string | null;
}

/** Characters of a token's signature kept to tell keys apart: too few to help guess the rest. */
export const TAIL_LENGTH = 4;

/** Issues and revokes consumer JWTs (`sub` = consumer id, `jti` = token id). */
@Injectable()
export class TokenService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly jwt: JwtService,
    private readonly tokens: ApiTokenRepository,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Stores the token's record through `q` (a caller's transaction, or the pool) and signs it. */
  async issue(
    consumerId: number,
    options: { label?: string; expiresInSeconds?: number } = {},
    q: SqlRunner = this.dataSource,
  ): Promise<IssuedToken> {
    const tokenId = randomUUID();
    const expiresAt = options.expiresInSeconds ? new Date(Date.now() + options.expiresInSeconds * 1000) : null;
    const token = await this.jwt.signAsync(
      { sub: String(consumerId) },
      { jwtid: tokenId, ...(options.expiresInSeconds ? { expiresIn: options.expiresInSeconds } : {}) },
    );
    await this.tokens.insert(q, { id: tokenId, consumerId, label: options.label ?? null, tail: token.slice(-TAIL_LENGTH), expiresAt });
    return { tokenId, token, expiresAt: expiresAt?.toISOString() ?? null };
  }

  /** The consumer a token id was issued to, while the token is neither revoked nor expired; otherwise null. */
  async liveOwnerOf(tokenId: string): Promise<number | null> {
    return this.tokens.liveOwnerOf(this.dataSource, tokenId);
  }

  listUnrevoked(consumerId: number): Promise<ApiTokenRow[]> {
    return this.tokens.listUnrevoked(this.dataSource, consumerId);
  }

  /**
   * Revokes in Postgres (the record every api process reloads from) and announces it on Redis so
   * running api processes refuse the token at once. Returns null when no token has that id (of
   * `consumerId`, when given).
   */
  async revoke(tokenId: string, consumerId?: number): Promise<ApiTokenRow | null> {
    const row = await this.tokens.revoke(this.dataSource, tokenId, consumerId);
    if (row) await this.redis.publish(revocationChannel(this.keys), tokenId);
    return row;
  }
}
