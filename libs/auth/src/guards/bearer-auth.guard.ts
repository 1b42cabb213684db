import { ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { RevokedTokensService } from '../tokens/revoked-tokens.service.js';
import { VerifiedTokenCache } from '../tokens/verified-token.cache.js';
import { AuthenticatedRequest, Principal } from './principal.js';

type BearerRequest = AuthenticatedRequest & { headers: { authorization?: string } };

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
  ) {
    super();
  }

  /** `true` at once for a cached token; otherwise passport's verdict, rejecting with 401. */
  authenticate(context: ExecutionContext): true | Promise<true> {
    const req = context.getArgByIndex<BearerRequest>(0);
    const header = bearerHeader(req);
    const principal = header === undefined ? undefined : this.verified.get(header);
    if (principal && !this.revoked.isRevoked(principal.tokenId)) {
      req.user = principal;
      return true;
    }
    return (super.canActivate(context) as Promise<boolean>).then(() => true);
  }

  override handleRequest<TUser>(error: unknown, user: TUser, _info: unknown, context: ExecutionContext): TUser {
    if (error || !user) throw new UnauthorizedException();
    const principal = user as unknown as Principal;
    const header = bearerHeader(context.getArgByIndex<BearerRequest>(0));
    if (header) this.verified.set(header, principal, principal.expiresAt);
    return user;
  }
}
