import { Injectable } from '@nestjs/common';
import { type SqlRunner } from '#database';
import { orderKey } from './order-book.fold.js';

/**
 * The keys of the orders the book holds (`open_orders` rows not gone), kept in memory: a fill or removal of
 * an order the book does not hold changes nothing, and nearly all of them are such: a maker's quote placed
 * and canceled or filled within one snapshot's five minutes never reaches the book, yet each was looked up
 * in it (a simulated day sent 201,001 of those changes to Postgres, 626 of which found their order).
 *
 * A transaction changes the keys in place (`begin`) and its commit is confirmed by the facts writer's
 * after-commit hook (`committed`). The table is read again whenever the keys are not known to be the
 * committed table's: at start, after a transaction whose commit was not confirmed (rolled back, or a hook
 * before this one failed), and when the source's progress row is not the version the last confirmed commit
 * wrote (another process's writes, a reset database).
 */
@Injectable()
export class BookedOrderKeys {
  private keys: Set<string> | null = null;
  /** The progress row's version the keys are of. */
  private rowVersion: string | null = null;
  /** A transaction changed the keys and its commit is not confirmed yet. */
  private unconfirmed = false;
  private written: string | null = null;

  /** The keys for the transaction in progress, given the version of the progress row it locked. */
  async begin(q: SqlRunner, rowVersion: string | null): Promise<Set<string>> {
    if (this.keys === null || this.unconfirmed || this.rowVersion !== rowVersion) {
      const rows: Array<{ address: string; oid: string }> = await q.query(`SELECT address, oid::text FROM open_orders WHERE NOT gone`);
      this.keys = new Set(rows.map((r) => orderKey(r.address, Number(r.oid))));
      this.rowVersion = rowVersion;
    }
    this.unconfirmed = true;
    this.written = null;
    return this.keys;
  }

  /** The transaction wrote the progress row: the version its commit leaves. */
  wrote(rowVersion: string): void {
    this.written = rowVersion;
  }

  /** The transaction committed: the keys are the table's, as of the version it wrote. */
  committed(): void {
    if (!this.unconfirmed) return;
    this.unconfirmed = false;
    if (this.written === null) this.keys = null;
    else this.rowVersion = this.written;
  }
}
