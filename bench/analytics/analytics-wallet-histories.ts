import type pg from 'pg';
import type { SqlRunner } from '#database';
import { StateSnapshotsRepository, WalletStateRepository } from '#market';
import { type AnalyticsDataset, STATE_INTERVAL_MS } from './analytics-dataset.js';

/** Most wallets' PnL and HYPE balances change a few times over the history: up to this many change points. */
const MAX_CHANGES = 6;

/**
 * What the state writer derives from the wallets and the PnL history at each update, for the latest one:
 * the wallets list's rankings and the leaderboard's day, week and month PnL. Without them the wallets
 * list sorts every wallet at each request and the leaderboard's periods are all zero.
 */
export async function rankingsAndPeriods(q: SqlRunner, dataset: AnalyticsDataset): Promise<void> {
  const stateTime = new Date(dataset.settings.endMs).toISOString();
  await new WalletStateRepository().writeRankings(q, stateTime);
  await new StateSnapshotsRepository().pnlPeriods(q, stateTime);
  await q.query('VACUUM (ANALYZE) wallet_rankings, wallet_rankings_status, wallet_pnl_periods');
}

/**
 * PnL and HYPE balances as the state writer keeps them: a row at the first update, then a row at each
 * update where the value changed. Each wallet gets up to MAX_CHANGES changes at updates of its own, its
 * value stepping to the loaded one (the newest row is the wallets row's value), so a leaderboard's day,
 * week and month PnL and the holders' 24 h and 7 d balances differ from wallet to wallet.
 */
export async function changePoints(client: pg.ClientBase, dataset: AnalyticsDataset): Promise<void> {
  const params = [new Date(dataset.startMs).toISOString(), `${STATE_INTERVAL_MS / 1000} seconds`, dataset.updates - 1, MAX_CHANGES + 1];
  // c: the change updates (1..updates-1) of each wallet, numbered i = 1..k oldest first; k: their count.
  const changes = (salt: number, having: string) => `
    WITH c AS (
      SELECT DISTINCT w.address, 1 + abs(hashint8(hashtext(w.address)::bigint * 31 + j + ${salt})) % $3 AS u
      FROM wallets w CROSS JOIN LATERAL generate_series(1, abs(hashtext(w.address || '${salt}')) % $4) j
      WHERE ${having}
    ),
    r AS (SELECT address, u, row_number() OVER (PARTITION BY address ORDER BY u) AS i, count(*) OVER (PARTITION BY address) AS k FROM c),
    k AS (SELECT address, max(k) AS k FROM r GROUP BY address),
    points AS (
      SELECT address, $1::timestamptz AS created_at, 0 AS i, k FROM k
      UNION ALL
      SELECT address, $1::timestamptz + u * $2::interval, i, k FROM r
    )`;
  await client.query(`DELETE FROM wallet_pnl_history`);
  // Wallets without a change keep their single first-update row.
  await client.query(
    `${changes(1, 'true')}
     INSERT INTO wallet_pnl_history (address, created_at, perp_pnl)
     SELECT w.address, coalesce(p.created_at, $1::timestamptz),
            w.perp_pnl - coalesce(p.k - p.i, 0) * round((abs(hashtext(w.address)) % 2000000 - 1000000) / 100.0 + w.perp_pnl * 0.02, 6)
     FROM wallets w LEFT JOIN points p ON p.address = w.address`,
    params,
  );
  await client.query(`DELETE FROM holder_history`);
  // Balances grow toward the loaded ones (never below zero), spot by a tenth and staked by a twentieth a step.
  await client.query(
    `${changes(2, 'w.spot_hype <> 0 OR w.staked_hype <> 0')}
     INSERT INTO holder_history (address, created_at, spot_amount, staked_amount)
     SELECT w.address, coalesce(p.created_at, $1::timestamptz),
            greatest(0, w.spot_hype - coalesce(p.k - p.i, 0) * round(w.spot_hype / 10, 8)),
            greatest(0, w.staked_hype - coalesce(p.k - p.i, 0) * round(w.staked_hype / 20, 8))
     FROM wallets w LEFT JOIN points p ON p.address = w.address
     WHERE w.spot_hype <> 0 OR w.staked_hype <> 0`,
    params,
  );
}
