import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { TooManyAttemptsError } from '#errors';
import { REDIS, RedisKeys } from '#runtime';

/** Sign-in attempts allowed per window: enough for typos, too few to guess a password. */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const ATTEMPTS_PER_ACCOUNT = 10;
/** One address may sign in several people (an office behind one NAT), so it gets more. */
export const ATTEMPTS_PER_ADDRESS = 50;

/**
 * Counts every sign-in attempt, per email and per client address, in fixed windows in Redis (so all api
 * processes share the count), and refuses the attempt once either count passes its limit.
 */
@Injectable()
export class SignInLimiterService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async attempt(email: string, address: string, now = Date.now()): Promise<void> {
    const window = Math.floor(now / 1000 / SIGN_IN_WINDOW_SECONDS);
    const counts = await Promise.all([
      this.count(this.keys.key('sign-in', 'account', email, window)),
      this.count(this.keys.key('sign-in', 'address', address, window)),
    ]);
    if (counts[0] > ATTEMPTS_PER_ACCOUNT || counts[1] > ATTEMPTS_PER_ADDRESS) {
      const retryAfter = (window + 1) * SIGN_IN_WINDOW_SECONDS - Math.floor(now / 1000);
      throw new TooManyAttemptsError(retryAfter, `Too many sign-in attempts; try again in ${Math.ceil(retryAfter / 60)} min.`);
    }
  }

  private async count(key: string): Promise<number> {
    const [[, count]] = (await this.redis.multi().incr(key).expire(key, SIGN_IN_WINDOW_SECONDS, 'NX').exec()) as [[null, number]];
    return count;
  }
}
