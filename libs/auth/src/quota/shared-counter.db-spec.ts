import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { resetRedis, useTestEnvironment } from '#testing';
import { SharedCounter } from './shared-counter.js';

describe('SharedCounter on a real Redis', () => {
  const config = useTestEnvironment();
  const clients: Redis[] = [];
  const client = () => {
    const redis = new Redis(config.REDIS_URL);
    clients.push(redis);
    return redis;
  };
  const key = (name: string) => `${config.REDIS_PREFIX}:counter-spec:${name}`;
  const expiresAt = () => Date.now() + 60_000;
  const resolve = async (r: ReturnType<SharedCounter['hit']>) => (r instanceof Promise ? r : r);

  beforeAll(() => resetRedis(config.REDIS_URL, config.REDIS_PREFIX));
  afterAll(() => Promise.all(clients.map((c) => c.quit())));

  it('admits exactly the limit across two processes sharing a small limit', async () => {
    const first = new SharedCounter(client());
    const second = new SharedCounter(client());
    const admitted: boolean[] = [];
    for (let i = 0; i < 30; i++) admitted.push((await resolve((i % 2 ? second : first).hit(key('small'), 12, expiresAt()))).allowed);
    expect(admitted.filter(Boolean)).toHaveLength(12);
    expect(admitted.slice(0, 12).every(Boolean)).toBe(true);
    expect(Number(await clients[0].get(key('small')))).toBe(12);
  });

  it('writes hits admitted from memory behind, and becomes exact again near the limit', async () => {
    const redis = client();
    const first = new SharedCounter(redis);
    const second = new SharedCounter(client());
    const limit = 1000; // sync margin: the last 20
    let admitted = 0;
    for (let i = 0; i < 600; i++) if ((await resolve(first.hit(key('large'), limit, expiresAt()))).allowed) admitted++;
    await first.flush();
    expect(Number(await redis.get(key('large')))).toBe(600);
    for (let i = 0; i < 600; i++) if ((await resolve((i % 2 ? first : second).hit(key('large'), limit, expiresAt()))).allowed) admitted++;
    await first.flush();
    await second.flush();
    expect(admitted).toBe(1000);
    expect(Number(await redis.get(key('large')))).toBe(1000);
  });

  it('re-seeds a counter from a durable value only upwards', async () => {
    const redis = client();
    const counter = new SharedCounter(redis);
    await counter.seed(key('seeded'), 7, expiresAt());
    expect(await redis.get(key('seeded'))).toBe('7');
    await counter.seed(key('seeded'), 3, expiresAt());
    expect(await redis.get(key('seeded'))).toBe('7');
    expect((await resolve(counter.hit(key('seeded'), 8, expiresAt()))).allowed).toBe(true);
    expect((await resolve(counter.hit(key('seeded'), 8, expiresAt()))).allowed).toBe(false);
  });
});
