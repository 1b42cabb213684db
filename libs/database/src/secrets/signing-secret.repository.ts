import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '../sql/sql-runner.js';

/** The service secret generated when JWT_SECRET is not set: one row, written once. */
@Injectable()
export class SigningSecretRepository {
  /**
   * The stored secret, storing `candidate` first when there is none. Two statements, not one: when another
   * process's INSERT wins, ours waits for its commit and does nothing, and only a statement started after that
   * commit sees its row (a SELECT in the INSERT's own statement would read the snapshot from before it).
   */
  async keep(q: SqlRunner, candidate: Buffer): Promise<Buffer> {
    await q.query(`INSERT INTO signing_secret (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING`, [candidate]);
    const rows: Array<{ secret: Buffer }> = await q.query(`SELECT secret FROM signing_secret WHERE id = 1`);
    return rows[0]!.secret;
  }
}
