import { type SqlRunner } from '#database';

/** Where an info-polled state update stands: the wallets to read, and the feed's newest block. */
export class KnownWalletsRepository {
  /** Wallets already in the state, and those that traded since the last update (new ones join the next update). */
  async addresses(q: SqlRunner): Promise<string[]> {
    const rows: Array<{ address: string }> = await q.query(
      `SELECT address FROM wallets
       UNION
       SELECT DISTINCT address FROM fills
       WHERE time > coalesce((SELECT max(state_time) FROM state_updates), '-infinity'::timestamptz)`,
    );
    return rows.map((r) => r.address);
  }

  /** The newest block with a trade and its time (from the per-market last prices): the height of a state read now. */
  async latestBlock(q: SqlRunner): Promise<{ height: number; timeMs: number } | null> {
    const rows: Array<{ height: string; time: Date }> = await q.query(
      `SELECT block_number::text AS height, time FROM market_prices ORDER BY block_number DESC LIMIT 1`,
    );
    return rows[0] ? { height: Number(rows[0].height), timeMs: rows[0].time.getTime() } : null;
  }
}
