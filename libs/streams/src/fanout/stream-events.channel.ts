import type { RedisKeys } from '#runtime';

/** The Redis pub/sub channel the ingestor publishes committed events on and every api process listens to. */
export const streamEventsChannel = (keys: RedisKeys): string => keys.key('streams', 'events');
