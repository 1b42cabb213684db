import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { resetDatabase, useTestEnvironment } from '#testing';
import { ApiTokenRepository } from './api-token.repository.js';

const repository = new ApiTokenRepository();
let dataSource: DataSource;
let consumerId: number;

beforeAll(async () => {
  const config = useTestEnvironment();
  await resetDatabase(config.DATABASE_URL);
  dataSource = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
  [{ id: consumerId }] = await dataSource.query(`INSERT INTO consumers (name, plan) VALUES ('tokens', 'tier1') RETURNING id`);
});
afterAll(async () => {
  await dataSource?.destroy();
});

describe('ApiTokenRepository', () => {
  it('inserts a token and returns it as stored, times as Dates', async () => {
    const id = randomUUID();
    const expiresAt = new Date('2031-02-03T04:05:06.789Z');
    const row = await repository.insert(dataSource, { id, consumerId, label: 'bot', tail: 'Xy_9', expiresAt });
    expect(row).toEqual({
      id,
      consumerId,
      label: 'bot',
      tail: 'Xy_9',
      createdAt: expect.any(Date),
      expiresAt,
      revokedAt: null,
      lastUsedAt: null,
    });
    const plain = await repository.insert(dataSource, { id: randomUUID(), consumerId, label: null, tail: null, expiresAt: null });
    expect(plain).toMatchObject({ label: null, tail: null, expiresAt: null, revokedAt: null });
  });

  it('revokes a token once: a second revocation keeps the first time', async () => {
    const id = randomUUID();
    const inserted = await repository.insert(dataSource, { id, consumerId, label: null, tail: null, expiresAt: null });
    const first = await repository.revoke(dataSource, id);
    expect(first).toEqual({ ...inserted, revokedAt: expect.any(Date) });
    await sleep(20);
    // Inside a transaction as well: the runner is an EntityManager there.
    const second = await dataSource.transaction((q) => repository.revoke(q, id));
    expect(second).toEqual(first);
    const [stored] = await dataSource.query(`SELECT revoked_at FROM api_tokens WHERE id = $1`, [id]);
    expect(stored.revoked_at).toEqual(first!.revokedAt);
  });

  it('revokes nothing for an unknown id or one that is not a uuid', async () => {
    expect(await repository.revoke(dataSource, '00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await repository.revoke(dataSource, 'not-a-token')).toBeNull();
  });

  it("names a live token's consumer, and no consumer for a revoked, expired, unknown or malformed id", async () => {
    const [{ id: other }] = await dataSource.query(`INSERT INTO consumers (name, plan) VALUES ('other', 'free') RETURNING id`);
    const live = await repository.insert(dataSource, { id: randomUUID(), consumerId, label: null, tail: null, expiresAt: null });
    const theirs = await repository.insert(dataSource, { id: randomUUID(), consumerId: other, label: null, tail: null, expiresAt: null });
    const later = await repository.insert(dataSource, {
      id: randomUUID(),
      consumerId,
      label: null,
      tail: null,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const expired = await repository.insert(dataSource, {
      id: randomUUID(),
      consumerId,
      label: null,
      tail: null,
      expiresAt: new Date(Date.now() - 1),
    });
    const revoked = await repository.insert(dataSource, { id: randomUUID(), consumerId, label: null, tail: null, expiresAt: null });
    await repository.revoke(dataSource, revoked.id);
    expect(await repository.liveOwnerOf(dataSource, live.id)).toBe(consumerId);
    expect(await repository.liveOwnerOf(dataSource, later.id)).toBe(consumerId);
    expect(await repository.liveOwnerOf(dataSource, theirs.id)).toBe(other);
    expect(await repository.liveOwnerOf(dataSource, expired.id)).toBeNull();
    expect(await repository.liveOwnerOf(dataSource, revoked.id)).toBeNull();
    expect(await repository.liveOwnerOf(dataSource, randomUUID())).toBeNull();
    expect(await repository.liveOwnerOf(dataSource, 'not-a-token')).toBeNull();
  });

  it('lists exactly the revoked ids', async () => {
    await dataSource.query(`TRUNCATE api_tokens`);
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids) await repository.insert(dataSource, { id, consumerId, label: null, tail: null, expiresAt: null });
    expect(await repository.revokedIds(dataSource)).toEqual([]);
    await repository.revoke(dataSource, ids[0]!);
    await repository.revoke(dataSource, ids[2]!);
    expect((await repository.revokedIds(dataSource)).sort()).toEqual([ids[0], ids[2]].sort());
  });

  it("lists a consumer's unrevoked tokens newest first, and revokes for an owner only its own", async () => {
    await dataSource.query(`TRUNCATE api_tokens`);
    const [{ id: other }] = await dataSource.query(`INSERT INTO consumers (name, plan) VALUES ('neighbour', 'free') RETURNING id`);
    const insert = (owner: number, label: string, createdAt: string) =>
      repository
        .insert(dataSource, { id: randomUUID(), consumerId: owner, label, tail: label.slice(0, 4), expiresAt: null })
        .then(async (row) => {
          await dataSource.query(`UPDATE api_tokens SET created_at = $2 WHERE id = $1`, [row.id, createdAt]);
          return row.id;
        });
    const older = await insert(consumerId, 'older', '2026-01-01T00:00:00Z');
    const newer = await insert(consumerId, 'newer', '2026-02-01T00:00:00Z');
    const gone = await insert(consumerId, 'gone', '2026-03-01T00:00:00Z');
    const theirs = await insert(other, 'theirs', '2026-04-01T00:00:00Z');

    expect(await repository.revoke(dataSource, theirs, consumerId)).toBeNull();
    expect(await repository.revoke(dataSource, gone, consumerId)).toMatchObject({ id: gone, revokedAt: expect.any(Date) });
    expect((await repository.listUnrevoked(dataSource, consumerId)).map((t) => [t.id, t.label, t.tail])).toEqual([
      [newer, 'newer', 'newe'],
      [older, 'older', 'olde'],
    ]);
    expect((await repository.listUnrevoked(dataSource, other)).map((t) => t.id)).toEqual([theirs]);
  });

  it('moves a last use forward only, for the tokens named', async () => {
    const used = await repository.insert(dataSource, { id: randomUUID(), consumerId, label: null, tail: null, expiresAt: null });
    const idle = await repository.insert(dataSource, { id: randomUUID(), consumerId, label: null, tail: null, expiresAt: null });
    const later = new Date('2026-05-01T10:00:00.000Z');
    await repository.recordUse(dataSource, [{ id: used.id, at: later }]);
    await repository.recordUse(dataSource, [{ id: used.id, at: new Date('2026-05-01T09:00:00.000Z') }]);
    const rows = await repository.listUnrevoked(dataSource, consumerId);
    expect(rows.find((r) => r.id === used.id)!.lastUsedAt).toEqual(later);
    expect(rows.find((r) => r.id === idle.id)!.lastUsedAt).toBeNull();
  });
});
