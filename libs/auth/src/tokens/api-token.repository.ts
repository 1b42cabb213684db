import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';

export interface ApiTokenRow {
  id: string;
  consumerId: number;
  label: string | null;
  /** The last characters of the token, kept to tell keys apart; null for tokens issued before it was kept. */
  tail: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** Up to a few seconds late: TokenUseRecorder writes in batches. */
  lastUsedAt: Date | null;
}

interface ApiTokenRecord {
  id: string;
  consumer_id: number;
  label: string | null;
  tail: string | null;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

const COLUMNS = 'id, consumer_id, label, tail, created_at, expires_at, revoked_at, last_used_at';
/** The shape of a uuid: anything else names no token, and Postgres would refuse it as an invalid uuid. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toRow(r: ApiTokenRecord): ApiTokenRow {
  return {
    id: r.id,
    consumerId: r.consumer_id,
    label: r.label,
    tail: r.tail,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
    lastUsedAt: r.last_used_at,
  };
}

/** Issued JWTs by their `jti`; the token itself is never stored. */
@Injectable()
export class ApiTokenRepository {
  async insert(
    q: SqlRunner,
    token: { id: string; consumerId: number; label: string | null; tail: string | null; expiresAt: Date | null },
  ): Promise<ApiTokenRow> {
    const rows: ApiTokenRecord[] = await q.query(
      `INSERT INTO api_tokens (id, consumer_id, label, tail, expires_at) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
      [token.id, token.consumerId, token.label, token.tail, token.expiresAt?.toISOString() ?? null],
    );
    return toRow(rows[0]!);
  }

  /**
   * Marks the token revoked and returns it, or null when there is no such token. Revoking twice keeps the
   * first time. With `consumerId`, only that consumer's token counts as found. The UPDATE runs inside a
   * SELECT so every runner returns plain rows (TypeORM returns `[rows, count]` for a bare UPDATE).
   */
  async revoke(q: SqlRunner, id: string, consumerId?: number): Promise<ApiTokenRow | null> {
    if (!UUID.test(id)) return null;
    const rows: ApiTokenRecord[] = await q.query(
      `WITH revoked AS (
         UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, now())
         WHERE id = $1 AND ($2::integer IS NULL OR consumer_id = $2) RETURNING ${COLUMNS}
       )
       SELECT ${COLUMNS} FROM revoked`,
      [id, consumerId ?? null],
    );
    return rows.length ? toRow(rows[0]!) : null;
  }

  /** The consumer of the token with this id when it is neither revoked nor expired; null for any other id. */
  async liveOwnerOf(q: SqlRunner, id: string): Promise<number | null> {
    if (!UUID.test(id)) return null;
    const rows: Array<{ consumer_id: number }> = await q.query(
      `SELECT consumer_id FROM api_tokens WHERE id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [id],
    );
    return rows[0]?.consumer_id ?? null;
  }

  /** The consumer's tokens that are not revoked, newest first (expired ones too: their expiry is shown). */
  async listUnrevoked(q: SqlRunner, consumerId: number): Promise<ApiTokenRow[]> {
    const rows: ApiTokenRecord[] = await q.query(
      `SELECT ${COLUMNS} FROM api_tokens WHERE consumer_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC, id`,
      [consumerId],
    );
    return rows.map(toRow);
  }

  /** Moves each token's last use forward to `at` (never back: batches of several processes may cross). */
  async recordUse(q: SqlRunner, uses: Array<{ id: string; at: Date }>): Promise<void> {
    await q.query(
      `UPDATE api_tokens t SET last_used_at = GREATEST(t.last_used_at, u.at)
       FROM unnest($1::uuid[], $2::timestamptz[]) AS u (id, at) WHERE t.id = u.id`,
      [uses.map((u) => u.id), uses.map((u) => u.at.toISOString())],
    );
  }

  async revokedIds(q: SqlRunner): Promise<string[]> {
    const rows: Array<{ id: string }> = await q.query(`SELECT id FROM api_tokens WHERE revoked_at IS NOT NULL`);
    return rows.map((r) => r.id);
  }
}
