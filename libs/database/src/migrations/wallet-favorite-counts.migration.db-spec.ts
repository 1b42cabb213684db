import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { MarketStateWriter, WalletsQueries } from '#market';
import { address, exchangeState, openFactsDatabase, startedWriter, useTestEnvironment, walletState } from '#testing';
import { WalletFavoriteCounts1765420000000 } from './1765420000000-wallet-favorite-counts.migration.js';

// A database upgraded with favourites already counted on the wallets rows keeps every count: the migration
// moves them to wallet_favorite_counts, and the profiles read them from there as before. Taken down, the
// counts are back on the wallets rows.

const config = useTestEnvironment();
let dataSource: DataSource;
const migration = new WalletFavoriteCounts1765420000000();
const [A, B, C] = [address(0xf1), address(0xf2), address(0xf3)];

async function run(step: 'up' | 'down'): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    await migration[step](runner);
  } finally {
    await runner.release();
  }
}

const profileCounts = async () => {
  const queries = new WalletsQueries();
  return Promise.all([A, B, C].map(async (wallet) => (await queries.byAddress(dataSource, wallet))!.favoriteCount));
};

beforeAll(async () => {
  ({ dataSource } = await openFactsDatabase(config.DATABASE_URL));
  const states = await startedWriter(dataSource, MarketStateWriter);
  await states.apply(exchangeState(1, Date.UTC(2026, 10, 20), [walletState(A), walletState(B), walletState(C)]));
});

afterAll(async () => {
  await dataSource?.destroy();
});

describe('migration 1765420000000 on a database with favourites', () => {
  it('moves each wallet count out of the wallets rows, and back when taken down', async () => {
    // The schema before it: the count on the wallets rows, as the favourites service kept it.
    await run('down');
    const [{ id: one }, { id: two }] = await dataSource.query(
      `INSERT INTO consumers (name, plan) VALUES ('one', 'tier1'), ('two', 'tier1') RETURNING id`,
    );
    await dataSource.query(`INSERT INTO consumer_favorites (consumer_id, address) VALUES ($1, $3), ($2, $3), ($1, $4)`, [one, two, A, B]);
    await dataSource.query(`UPDATE wallets SET favorite_count = CASE address WHEN $1 THEN 2 WHEN $2 THEN 1 ELSE 0 END`, [A, B]);

    await run('up');
    expect(await dataSource.query(`SELECT address, favorite_count FROM wallet_favorite_counts ORDER BY address`)).toEqual([
      { address: A, favorite_count: 2 },
      { address: B, favorite_count: 1 },
    ]);
    expect(await profileCounts()).toEqual([2, 1, 0]);
    expect(
      await dataSource.query(
        `SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'wallets' AND column_name = 'favorite_count'`,
      ),
    ).toEqual([{ n: 0 }]);

    await run('down');
    expect(await dataSource.query(`SELECT address, favorite_count FROM wallets ORDER BY address`)).toEqual([
      { address: A, favorite_count: 2 },
      { address: B, favorite_count: 1 },
      { address: C, favorite_count: 0 },
    ]);
    await run('up');
    expect(await profileCounts()).toEqual([2, 1, 0]);
  });
});
