import { ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/internal';
import { AuthGuard } from '@nestjs/passport';
import type { IncomingMessage } from 'node:http';
import { RevokedTokensService } from '../tokens/revoked-tokens.service.js';
import { TokenUseRecorder } from '../tokens/token-use.recorder.js';
import { VerifiedTokenCache } from '../tokens/verified-token.cache.js';
import { Principal, PrincipalHolder, principalOf } from './principal.js';

type BearerRequest = { headers: { authorization?: string }; user?: Principal };

/** The Authorization header when it carries a bearer token; the whole header is the cache key (no slicing per request). */
function bearerHeader(req: BearerRequest): string | undefined {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header : undefined;
}

/**
 * Authenticates a request by its bearer token. A token is verified by the passport-jwt strategy
 * the first time it is seen and then served from VerifiedTokenCache, always re-checked against
 * revocations. Used by ApiAccessGuard, not registered as a guard of its own.
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('jwt') {
  constructor(
    private readonly verified: VerifiedTokenCache,
    private readonly revoked: RevokedTokensService,
    private readonly uses: TokenUseRecorder,
  ) {
    super();
  }

  /**
   * Puts the caller's principal in `res.locals`: at once for a cached token, otherwise after
   * passport's verdict (a rejection is a 401).
   */
  authenticate(context: ExecutionContext): true | Promise<true> {
    const header = bearerHeader(context.getArgByIndex<BearerRequest>(0));
    const res = context.getArgByIndex<PrincipalHolder>(1);
    const principal = header === undefined ? undefined : this.verified.get(header);
    if (principal && !this.revoked.isRevoked(principal.tokenId)) {
      res.locals.principal = principal;
      this.uses.used(principal.tokenId);
      return true;
    }
    return (super.canActivate(context) as Promise<boolean>).then(() => {
      const verified = context.getArgByIndex<BearerRequest>(0).user!;
      res.locals.principal = verified;
      this.uses.used(verified.tokenId);
      return true;
    });
  }

  /**
   * The principal of a websocket upgrade by the very checks a request passes (signature, expiry, live token
   * id, revocation); null when the header is missing or the token refused.
   */
  async principalOfUpgrade(request: IncomingMessage): Promise<Principal | null> {
    const holder: PrincipalHolder = { locals: {} };
    try {
      await this.authenticate(new ExecutionContextHost([request, holder]));
    } catch (error) {
      if (error instanceof UnauthorizedException) return null;
      throw error;
    }
    return principalOf(holder) ?? null;
  }

  override handleRequest<TUser>(error: unknown, user: TUser, _info: unknown, context: ExecutionContext): TUser {
    // A failure to check the token (Postgres unreachable) is the service's fault, not a bad token: a 401
    // would tell the client to drop a token that is fine.
    if (error) throw error;
    if (!user) throw new UnauthorizedException();
    const principal = user as unknown as Principal;
    const header = bearerHeader(context.getArgByIndex<BearerRequest>(0));
    if (header) this.verified.set(header, principal, principal.expiresAt);
    return user;
  }
}
