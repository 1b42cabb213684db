import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';

/**
 * The export files' rows (`export_files`) and the lock that lets one api process at a time build an export:
 * Postgres's transaction-level advisory lock on a hash of the export's name (kind and coin), so it holds
 * across api processes and ends with the build's transaction, or with its connection if the process dies.
 */
@Injectable()
export class ExportFilesRepository {
  /** Waits until no other transaction builds `name`, then holds it until this one ends. */
  async lockBuild(q: SqlRunner, name: string): Promise<void> {
    await q.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`tidewatch export ${name}`]);
  }

  /** Records a link given out for the file (its row created on the first), keeping the latest expiry. */
  async linked(q: SqlRunner, key: string, stateHeight: number, expiresAt: string): Promise<void> {
    await q.query(
      `INSERT INTO export_files (key, state_height, links_expire_at) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET links_expire_at = greatest(export_files.links_expire_at, excluded.links_expire_at)`,
      [key, stateHeight, expiresAt],
    );
  }

  /**
   * Deletes up to `limit` rows of files that a newer state update has replaced and whose last link expired
   * before `now`, returning their keys. Rows another pass holds are skipped.
   */
  async deleteLapsed(q: SqlRunner, now: string, limit: number): Promise<string[]> {
    const rows: Array<{ key: string }> = await q.query(
      `WITH lapsed AS (
         DELETE FROM export_files WHERE key IN (
           SELECT key FROM export_files
           WHERE links_expire_at < $1 AND state_height < (SELECT max(height) FROM state_updates)
           ORDER BY links_expire_at LIMIT $2
           FOR UPDATE SKIP LOCKED)
         RETURNING key)
       SELECT key FROM lapsed`,
      [now, limit],
    );
    return rows.map((r) => r.key);
  }
}
