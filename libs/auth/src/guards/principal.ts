import { ConsumerLimits } from '../consumers/consumer-directory.service.js';

/** Who is calling. */
export interface Principal {
  consumerId: number;
  tokenId: string;
  limits: ConsumerLimits;
  /** The token's `exp` in epoch ms; undefined when it never expires. */
  expiresAt?: number;
}

/**
 * The principal of a request lives in express's per-request `res.locals`, not as a new property on
 * the request (a property added per request gives request objects new shapes, which slows every
 * later property read on them in express and Node).
 */
export interface PrincipalHolder {
  locals: { principal?: Principal };
}

export function principalOf(res: PrincipalHolder): Principal | undefined {
  return res.locals.principal;
}
