import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { SigningKeys } from '#database';
import { ConsumerDirectoryService } from '../consumers/consumer-directory.service.js';
import { RevokedTokensService } from '../tokens/revoked-tokens.service.js';
import { TokenService } from '../tokens/token.service.js';
import { Principal } from './principal.js';

interface TokenClaims {
  sub?: unknown;
  jti?: unknown;
  exp?: unknown;
}

/**
 * Accepts only HS256 tokens signed with the tokens' key (so `alg: none` and other algorithms fail),
 * unexpired, whose id was issued to the consumer they name and is not revoked, of an existing consumer.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    keys: SigningKeys,
    private readonly revoked: RevokedTokensService,
    private readonly tokens: TokenService,
    private readonly directory: ConsumerDirectoryService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // A KeyObject, not bytes: given a string, jsonwebtoken first tries (and fails) to parse it as a PEM
      // public key on every verify, which costs ~1.5 ms a request.
      secretOrKey: keys.tokens as unknown as string, // typings lag: jsonwebtoken takes a KeyObject
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  /**
   * Runs once per token and process, and again when its VerifiedTokenCache entry lapses (30 s): the id is
   * read from Postgres here, so a request with a known token makes no round trip.
   */
  async validate(claims: TokenClaims): Promise<Principal | false> {
    const consumerId = typeof claims.sub === 'string' ? Number(claims.sub) : NaN;
    if (!Number.isSafeInteger(consumerId) || typeof claims.jti !== 'string') return false;
    if (this.revoked.isRevoked(claims.jti)) return false;
    // A good signature is not enough: the id must be one this consumer was issued and still holds, so a token
    // forged with a leaked key still needs a live token id of the very consumer it names.
    if ((await this.tokens.liveOwnerOf(claims.jti)) !== consumerId) return false;
    const lookup = this.directory.lookup(consumerId);
    const limits = lookup instanceof Promise ? await lookup : lookup;
    if (!limits) return false;
    return { consumerId, tokenId: claims.jti, limits, expiresAt: typeof claims.exp === 'number' ? claims.exp * 1000 : undefined };
  }
}
