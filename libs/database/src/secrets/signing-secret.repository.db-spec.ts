import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { resetDatabase, useTestEnvironment } from '#testing';
import { dataSourceOptions } from '../data-source.js';
import { SigningKeys, signingKeysFor } from './signing-keys.js';
import { SigningSecretRepository } from './signing-secret.repository.js';

const repository = new SigningSecretRepository();
const secret = (byte: number) => Buffer.alloc(32, byte);
let dataSource: DataSource;

beforeAll(async () => {
  const config = useTestEnvironment();
  await resetDatabase(config.DATABASE_URL);
  dataSource = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
});
beforeEach(() => dataSource.query('TRUNCATE signing_secret'));
afterAll(() => dataSource?.destroy());

describe('SigningSecretRepository.keep', () => {
  it('stores the first candidate and gives it back to every later caller', async () => {
    expect(await repository.keep(dataSource, secret(1))).toEqual(secret(1));
    expect(await repository.keep(dataSource, secret(2))).toEqual(secret(1));
    expect(await dataSource.query('SELECT secret FROM signing_secret')).toEqual([{ secret: secret(1) }]);
  });

  it("gives a caller racing another's uncommitted first write that write's secret, once it commits", async () => {
    const first = dataSource.createQueryRunner();
    await first.connect();
    try {
      await first.startTransaction();
      expect(await repository.keep(first, secret(1))).toEqual(secret(1));
      const second = repository.keep(dataSource, secret(2));
      // The second INSERT waits on the first's row lock; commit only once it does, so the race is certain.
      let waiting = 0;
      for (let i = 0; i < 200 && waiting === 0; i++) {
        [{ waiting }] = await dataSource.query(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO signing_secret%'`,
        );
        if (waiting === 0) await new Promise((r) => setTimeout(r, 25));
      }
      expect(waiting).toBe(1);
      await first.commitTransaction();
      expect(await second).toEqual(secret(1));
    } finally {
      await first.release();
    }
  });
});

describe('signingKeysFor', () => {
  const keyBytes = (keys: SigningKeys) => [keys.tokens.export(), keys.listCursors, keys.exportLinks];

  it('derives from JWT_SECRET when it is set, and writes no secret', async () => {
    const given = 'a-secret-the-operator-chose-0123456789';
    const keys = await signingKeysFor(useTestEnvironment({ JWT_SECRET: given }), dataSource, repository);
    expect(keyBytes(keys)).toEqual(keyBytes(new SigningKeys(Buffer.from(given))));
    expect(await dataSource.query('SELECT secret FROM signing_secret')).toEqual([]);
  });

  it('without JWT_SECRET, derives from the stored secret, generating 32 random bytes only when there is none', async () => {
    const config = useTestEnvironment({ JWT_SECRET: '' });
    const generated = await signingKeysFor(config, dataSource, repository);
    const [{ secret: stored }]: Array<{ secret: Buffer }> = await dataSource.query('SELECT secret FROM signing_secret');
    expect(stored).toHaveLength(32);
    expect(stored.equals(Buffer.alloc(32))).toBe(false);
    expect(keyBytes(generated)).toEqual(keyBytes(new SigningKeys(stored)));
    expect(keyBytes(await signingKeysFor(config, dataSource, repository))).toEqual(keyBytes(generated));
  });
});
