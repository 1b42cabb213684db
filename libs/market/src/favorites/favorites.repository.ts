import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';

/** Names the per-consumer advisory lock that serialises one consumer's changes (its own key space: two ints). */
const FAVORITES_LOCK_CLASS = 7_311_209;

/**
 * The `consumer_favorites` table and each wallet's count of them in `wallet_favorite_counts` (both of
 * the `favorites` domain), written by FavoritesWriter. Addresses are lower case.
 */
@Injectable()
export class FavoritesRepository {
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

  /** Adds the favourite and counts it for the wallet; false (and nothing changed) when it was one already. */
  async insert(q: SqlRunner, consumerId: number, address: string): Promise<boolean> {
    const [{ n }]: Array<{ n: number }> = await q.query(
      `WITH inserted AS (INSERT INTO consumer_favorites (consumer_id, address) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1)
       SELECT count(*)::int AS n FROM inserted`,
      [consumerId, address],
    );
    if (n === 0) return false;
    await q.query(
      `INSERT INTO wallet_favorite_counts (address, favorite_count) VALUES ($1, 1)
       ON CONFLICT (address) DO UPDATE SET favorite_count = wallet_favorite_counts.favorite_count + 1`,
      [address],
    );
    return true;
  }

  /** Removes the favourite and uncounts it (a count of 0 keeps its row); false (and nothing changed) when it was none. */
  async delete(q: SqlRunner, consumerId: number, address: string): Promise<boolean> {
    // A bare DELETE ... RETURNING comes back from TypeORM as [rows, count]: a CTE gives plain rows.
    const [{ n }]: Array<{ n: number }> = await q.query(
      `WITH deleted AS (DELETE FROM consumer_favorites WHERE consumer_id = $1 AND address = $2 RETURNING 1) SELECT count(*)::int AS n FROM deleted`,
      [consumerId, address],
    );
    if (n === 0) return false;
    await q.query(`UPDATE wallet_favorite_counts SET favorite_count = favorite_count - 1 WHERE address = $1`, [address]);
    return true;
  }
}
