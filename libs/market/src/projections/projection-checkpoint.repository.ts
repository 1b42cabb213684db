import { Injectable } from '@nestjs/common';
import { type SqlRunner } from '#database';

/** How far a fill projection has gone: block numbers of its source's streams (exclusive lower bounds). */
export interface ProjectionPosition {
  /** Fills of blocks up to here are projected; null before the first run. */
  fillsBlock: number | null;
  /** Funding payments of blocks up to here are attributed. */
  fundingBlock: number | null;
  /** The newest fill time projected, epoch ms: the exchange "now" of the derived tables. */
  lastFillTime: number | null;
}

const START: ProjectionPosition = { fillsBlock: null, fundingBlock: null, lastFillTime: null };

@Injectable()
export class ProjectionCheckpointRepository {
  /**
   * The stored position, locked until the transaction ends: a second projector of the same name waits
   * and then reads the position the first one committed, so no window is projected twice.
   */
  async lock(q: SqlRunner, name: string): Promise<ProjectionPosition> {
    await q.query(`INSERT INTO projection_checkpoints (name, position) VALUES ($1, $2::jsonb) ON CONFLICT (name) DO NOTHING`, [
      name,
      JSON.stringify(START),
    ]);
    const rows: Array<{ position: ProjectionPosition }> = await q.query(
      `SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE`,
      [name],
    );
    return { ...START, ...rows[0]!.position };
  }

  async save(q: SqlRunner, name: string, position: ProjectionPosition): Promise<void> {
    await q.query(`UPDATE projection_checkpoints SET position = $2::jsonb, updated_at = now() WHERE name = $1`, [
      name,
      JSON.stringify(position),
    ]);
  }
}
