import { Injectable } from '@nestjs/common';
import type { FeedPosition } from './exchange-facts.types.js';
import { type SqlRunner } from '#database';

@Injectable()
export class FeedCheckpointRepository {
  /**
   * The stored positions of the given streams, locked until the transaction ends so that two writers of
   * one source apply a block once between them.
   */
  async lock(q: SqlRunner, source: string, streams: string[]): Promise<Map<string, FeedPosition>> {
    const rows: Array<{ stream: string; position: FeedPosition }> = await q.query(
      `SELECT stream, position FROM feed_checkpoints WHERE source = $1 AND stream = ANY($2::text[]) ORDER BY stream FOR UPDATE`,
      [source, streams],
    );
    return new Map(rows.map((r) => [r.stream, r.position]));
  }

  /** Every stream's stored position of a source: where its feed resumes. */
  async read(q: SqlRunner, source: string): Promise<Map<string, FeedPosition>> {
    const rows: Array<{ stream: string; position: FeedPosition }> = await q.query(
      `SELECT stream, position FROM feed_checkpoints WHERE source = $1`,
      [source],
    );
    return new Map(rows.map((r) => [r.stream, r.position]));
  }

  /** Stores the positions, forward only: a position at or below the stored lastBlock is ignored. */
  async advance(q: SqlRunner, source: string, positions: Map<string, FeedPosition>): Promise<void> {
    if (positions.size === 0) return;
    const streams = [...positions.keys()];
    await q.query(
      `INSERT INTO feed_checkpoints (source, stream, position, updated_at)
       SELECT $1, s, p::jsonb, now() FROM unnest($2::text[], $3::text[]) AS x(s, p)
       ON CONFLICT (source, stream) DO UPDATE SET position = EXCLUDED.position, updated_at = EXCLUDED.updated_at
       WHERE feed_checkpoints.position->>'lastBlock' IS NULL
          OR (EXCLUDED.position->>'lastBlock')::bigint > (feed_checkpoints.position->>'lastBlock')::bigint`,
      [source, streams, streams.map((s) => JSON.stringify(positions.get(s)))],
    );
  }
}
