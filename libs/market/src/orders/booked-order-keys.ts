import { Injectable } from '@nestjs/common';
import { type SqlRunner } from '#database';
import { orderKey } from './order-book.fold.js';

/**
 * The keys of the orders the book holds (`open_orders` rows not gone), kept in memory: a fill or removal of
 * an order the book does not hold changes nothing, and nearly all of them are such: a maker's quote placed
 * and canceled or filled within one snapshot's five minutes never reaches the book, yet each was looked up
 * in it (a simulated day sent 201,001 of those changes to Postgres, 626 of which found their order).
 *
 * The copy is of the committed table. A transaction works on a copy of its own (`begin`), which becomes the
 * committed one when the commit is confirmed (`committed`, the facts writer's after-commit hook), so a
 * transaction rolled back leaves the committed copy as it was. The table is read again whenever the source's
 * progress row is not the version the last confirmed commit wrote: at start, after a commit not confirmed,
 * after another process's writes or a reset database.
 */
@Injectable()
export class BookedOrderKeys {
  private current: { keys: Set<string>; rowVersion: string | null } | null = null;
  private working: { keys: Set<string>; rowVersion: string | null } | null = null;

  /** The keys for the transaction in progress, given the version of the progress row it locked. */
  async begin(q: SqlRunner, rowVersion: string | null): Promise<Set<string>> {
    if (this.current === null || this.current.rowVersion !== rowVersion) {
      const rows: Array<{ address: string; oid: string }> = await q.query(`SELECT address, oid::text FROM open_orders WHERE NOT gone`);
      this.current = { keys: new Set(rows.map((r) => orderKey(r.address, Number(r.oid)))), rowVersion };
    }
    this.working = { keys: new Set(this.current.keys), rowVersion: null };
    return this.working.keys;
  }

  /** The transaction wrote the progress row: the version its commit leaves. */
  written(rowVersion: string): void {
    if (this.working !== null) this.working.rowVersion = rowVersion;
  }

  /** The transaction committed: its keys are the table's. */
  committed(): void {
    if (this.working?.rowVersion) this.current = this.working;
    this.working = null;
  }
}
