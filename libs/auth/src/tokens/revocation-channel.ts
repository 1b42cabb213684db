import { RedisKeys } from '#runtime';

/** Redis pub/sub channel on which revoked token ids are announced to every api process. */
export const revocationChannel = (keys: RedisKeys): string => keys.key('token-revoked');
