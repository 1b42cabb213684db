import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { KeysetCursorCodec } from '#database';
import type { OpenOrderFilters, OpenOrderRecord, OrderSnapshot } from '../../orders/open-order.types.js';
import { OrderSnapshotsQueries } from './order-snapshots.queries.js';

/** The cursor's list name: a cursor of another list is refused. */
const LIST = 'order-snapshots';

export interface OrderSnapshotPage {
  snapshot: OrderSnapshot;
  orders: OpenOrderRecord[];
  /** Opaque; null on the last page. */
  nextCursor: string | null;
}

@Injectable()
export class OrderSnapshotsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: OrderSnapshotsQueries,
    private readonly cursors: KeysetCursorCodec,
  ) {}

  /** The newest snapshot taken; null before the first. */
  latestSnapshot(): Promise<OrderSnapshot | null> {
    return this.queries.latestSnapshot(this.dataSource);
  }

  /**
   * One page of the orders open at snapshot `snapshotTs` (ISO 8601 or epoch ms), by (address, oid); null
   * when no snapshot was taken then. A cursor this list did not issue is an InvalidCursorError.
   */
  async page(snapshotTs: string | number, filters: OpenOrderFilters, limit: number, nextCursor?: string | null): Promise<OrderSnapshotPage | null> {
    const after = nextCursor == null ? null : this.cursors.decode(LIST, nextCursor, ['string', 'number'] as const);
    const page = await this.queries.openAt(this.dataSource, snapshotTs, filters, limit, after && { address: after[0], oid: after[1] });
    if (page === null) return null;
    return { ...page, nextCursor: page.nextCursor && this.cursors.encode(LIST, [page.nextCursor.address, page.nextCursor.oid]) };
  }
}
