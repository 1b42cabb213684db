import { ConsumerLimits } from '../consumers/consumer-directory.service.js';

/** Who is calling: set on `request.user` by the JWT strategy. */
export interface Principal {
  consumerId: number;
  tokenId: string;
  limits: ConsumerLimits;
}

export interface AuthenticatedRequest {
  user: Principal;
}
