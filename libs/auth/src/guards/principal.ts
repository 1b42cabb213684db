import { ConsumerLimits } from '../consumers/consumer-directory.service.js';

/** Who is calling: set on `request.user` by the JWT strategy. */
export interface Principal {
  consumerId: number;
  tokenId: string;
  limits: ConsumerLimits;
  /** The token's `exp` in epoch ms; undefined when it never expires. */
  expiresAt?: number;
}

export interface AuthenticatedRequest {
  user: Principal;
}
