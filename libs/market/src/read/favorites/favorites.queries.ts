import { Injectable } from '@nestjs/common';
import { epochMs, type SqlRunner } from '#database';
import {
  toWalletProfileRecord,
  WALLET_PROFILE_COLUMNS,
  type WalletProfileRecord,
  type WalletProfileRow,
} from '../wallets/wallets.queries.js';

/** A consumer's favourite: when it was added (epoch ms) and the wallet as it is now. */
export interface FavoriteRecord {
  createdAt: number;
  wallet: WalletProfileRecord;
}

/** Names the per-consumer advisory lock that serialises one consumer's changes (its own key space: two ints). */
const FAVORITES_LOCK_CLASS = 7_311_209;

const SELECT = `SELECT ${epochMs('f.created_at')} AS favorited_at, ${WALLET_PROFILE_COLUMNS}
  FROM consumer_favorites f JOIN wallets w ON w.address = f.address`;

type FavoriteRow = WalletProfileRow & { favorited_at: string };

const toFavorite = (r: FavoriteRow): FavoriteRecord => ({ createdAt: Number(r.favorited_at), wallet: toWalletProfileRecord(r) });

/**
 * The `consumer_favorites` table and the `favorite_count` it keeps on the wallets rows. Addresses are
 * lower case; every statement names the consumer, so a consumer only ever reaches its own rows.
 */
@Injectable()
export class FavoritesQueries {
  /** A consumer's favourites, newest first (address ascending between equal times). */
  async list(q: SqlRunner, consumerId: number): Promise<FavoriteRecord[]> {
    const rows: FavoriteRow[] = await q.query(`${SELECT} WHERE f.consumer_id = $1 ORDER BY f.created_at DESC, f.address`, [consumerId]);
    return rows.map(toFavorite);
  }

  async one(q: SqlRunner, consumerId: number, address: string): Promise<FavoriteRecord | null> {
    const rows: FavoriteRow[] = await q.query(`${SELECT} WHERE f.consumer_id = $1 AND f.address = $2`, [consumerId, address]);
    return rows[0] ? toFavorite(rows[0]) : null;
  }

  async isFavorite(q: SqlRunner, consumerId: number, address: string): Promise<boolean> {
    const rows: unknown[] = await q.query(`SELECT 1 FROM consumer_favorites WHERE consumer_id = $1 AND address = $2`, [
      consumerId,
      address,
    ]);
    return rows.length > 0;
  }

  /** Until the transaction ends, the consumer's other changes wait (so its count and cap hold). */
  async lockConsumer(q: SqlRunner, consumerId: number): Promise<void> {
    await q.query(`SELECT pg_advisory_xact_lock($1, $2)`, [FAVORITES_LOCK_CLASS, consumerId]);
  }

  async count(q: SqlRunner, consumerId: number): Promise<number> {
    const [{ n }]: Array<{ n: number }> = await q.query(`SELECT count(*)::int AS n FROM consumer_favorites WHERE consumer_id = $1`, [
      consumerId,
    ]);
    return n;
  }

  async walletExists(q: SqlRunner, address: string): Promise<boolean> {
    const rows: unknown[] = await q.query(`SELECT 1 FROM wallets WHERE address = $1`, [address]);
    return rows.length > 0;
  }

  /** Adds the favourite and counts it on the wallet; false (and nothing changed) when it was one already. */
  async insert(q: SqlRunner, consumerId: number, address: string): Promise<boolean> {
    const [{ n }]: Array<{ n: number }> = await q.query(
      `WITH inserted AS (INSERT INTO consumer_favorites (consumer_id, address) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1)
       SELECT count(*)::int AS n FROM inserted`,
      [consumerId, address],
    );
    if (n === 0) return false;
    await q.query(`UPDATE wallets SET favorite_count = favorite_count + 1 WHERE address = $1`, [address]);
    return true;
  }

  /** Removes the favourite and uncounts it; false (and nothing changed) when it was none. */
  async delete(q: SqlRunner, consumerId: number, address: string): Promise<boolean> {
    // A bare DELETE ... RETURNING comes back from TypeORM as [rows, count]: a CTE gives plain rows.
    const [{ n }]: Array<{ n: number }> = await q.query(
      `WITH deleted AS (DELETE FROM consumer_favorites WHERE consumer_id = $1 AND address = $2 RETURNING 1) SELECT count(*)::int AS n FROM deleted`,
      [consumerId, address],
    );
    if (n === 0) return false;
    await q.query(`UPDATE wallets SET favorite_count = favorite_count - 1 WHERE address = $1`, [address]);
    return true;
  }
}
