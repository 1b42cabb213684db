import { Injectable } from '@nestjs/common';
import { epochMs, ReadsTables, type SqlRunner } from '#database';
import {
  favoriteCountJoin,
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

const SELECT = `SELECT ${epochMs('f.created_at')} AS favorited_at, ${WALLET_PROFILE_COLUMNS}
  FROM consumer_favorites f JOIN wallets w ON w.address = f.address ${favoriteCountJoin()}`;

type FavoriteRow = WalletProfileRow & { favorited_at: string };

const toFavorite = (r: FavoriteRow): FavoriteRecord => ({ createdAt: Number(r.favorited_at), wallet: toWalletProfileRecord(r) });

/**
 * A consumer's favourites as the routes read them (FavoritesRepository of libs/market/src/favorites writes
 * them). Addresses are lower case; every statement names the consumer, so a consumer only ever reaches its
 * own rows.
 */
@Injectable()
@ReadsTables('consumer_favorites', 'wallets', 'wallet_favorite_counts')
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
}
