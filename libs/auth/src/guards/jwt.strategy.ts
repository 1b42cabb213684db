import { Injectable } from '@nestjs/common';
import { createSecretKey } from 'node:crypto';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AppConfig } from '#config';
import { ConsumerDirectoryService } from '../consumers/consumer-directory.service.js';
import { RevokedTokensService } from '../tokens/revoked-tokens.service.js';
import { Principal } from './principal.js';

interface TokenClaims {
  sub?: unknown;
  jti?: unknown;
  exp?: unknown;
}

/**
 * Accepts only HS256 tokens signed with JWT_SECRET (so `alg: none` and other algorithms fail),
 * unexpired, not revoked, and naming an existing consumer.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    config: AppConfig,
    private readonly revoked: RevokedTokensService,
    private readonly directory: ConsumerDirectoryService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // A KeyObject, not the string: given a string, jsonwebtoken first tries (and fails) to parse it
      // as a PEM public key on every verify, which costs ~1.5 ms a request.
      secretOrKey: createSecretKey(Buffer.from(config.JWT_SECRET, 'utf8')) as unknown as string, // typings lag: jsonwebtoken takes a KeyObject
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  async validate(claims: TokenClaims): Promise<Principal | false> {
    const consumerId = typeof claims.sub === 'string' ? Number(claims.sub) : NaN;
    if (!Number.isSafeInteger(consumerId) || typeof claims.jti !== 'string') return false;
    if (this.revoked.isRevoked(claims.jti)) return false;
    const lookup = this.directory.lookup(consumerId);
    const limits = lookup instanceof Promise ? await lookup : lookup;
    if (!limits) return false;
    return { consumerId, tokenId: claims.jti, limits, expiresAt: typeof claims.exp === 'number' ? claims.exp * 1000 : undefined };
  }
}
