import type { BulkInsert } from './bulk-insert.js';
import { copyChunks, copyLines } from './copy-text.js';
import type { SqlRunner } from './sql-runner.js';

const isUniqueViolation = (error: unknown): boolean => (error as { code?: string }).code === '23505';

/**
 * Rows of a fact table stored by COPY when none of them is stored yet, else by the table's BulkInsert
 * (`INSERT ... ON CONFLICT`): built once per repository from the BulkInsert and a row's COPY text line
 * (columns in the BulkInsert's order, ending in "\n").
 *
 * COPY stores rows at about twice the rate of an INSERT from unnest (no executor per row, heap and WAL
 * written in batches) but cannot skip a row already stored: one such row fails the COPY with a unique
 * violation, and the batch goes in by the INSERT from a savepoint taken before it. A live feed's rows are
 * new, so the fallback is for a replay, a repeat inside the batch, or another writer that stored some
 * first. Must run inside a transaction.
 */
export class CopyFirstInsert<R> {
  private readonly target: string;
  private readonly savepoint: string;

  constructor(
    private readonly insert: BulkInsert<R>,
    private readonly line: (row: R) => string,
  ) {
    this.target = `${insert.table} (${insert.columnNames.join(', ')})`;
    this.savepoint = `${insert.table}_copy`;
  }

  /** Stores the rows not stored yet; returns how many were new. */
  async run(q: SqlRunner, rows: readonly R[]): Promise<number> {
    if (rows.length === 0) return 0;
    await q.query(`SAVEPOINT ${this.savepoint}`);
    try {
      return await copyLines(q, this.target, copyChunks(rows, this.line));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await q.query(`ROLLBACK TO SAVEPOINT ${this.savepoint}`);
      return await this.insert.run(q, rows);
    }
  }
}
