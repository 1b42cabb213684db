import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoTime, KeysetCursorCodec } from '#database';
import { InvalidInputError, NotFoundError } from '#errors';
import type { OpenOrderRecord } from '../../orders/open-order.types.js';
import { CoinsService } from '../coins/coins.service.js';
import { jsonNumber } from '../json-number.js';
import { queryTimeMs } from '../query-time.js';
import { snapshotTimeMs } from './order-snapshot-time.js';
import { OrderSnapshotsQueries } from './order-snapshots.queries.js';

/** The cursor's list name: a cursor of another list is refused. Its keys: the snapshot, then (address, oid). */
const LIST = 'order-snapshot-pages';

export const ORDER_SNAPSHOTS_DEFAULT_LIMIT = 100;
export const ORDER_SNAPSHOTS_MAX_LIMIT = 500;
export const ORDER_TYPES = ['Limit', 'Stop Limit', 'Stop Market', 'Take Profit Limit', 'Take Profit Market'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

export const NO_SNAPSHOT_YET = 'No order snapshot has been taken yet';

export interface OrderSnapshotPageRequest {
  /** 1..500; default 100. */
  limit?: number;
  nextCursor?: string;
  /** Any case; a market never seen is a NotFoundError. */
  coin?: string;
  /** Any case. */
  address?: string;
  oid?: number;
  /** Inclusive bounds on the order's creation time, ISO 8601 (a time without a zone is UTC). */
  start?: string;
  end?: string;
  orderType?: OrderType;
}

/** The contract's Open order: decimals as JSON numbers. */
export type OpenOrderJson = Omit<OpenOrderRecord, 'limitPx' | 'sz' | 'origSz' | 'triggerPx'> & {
  limitPx: number;
  sz: number;
  origSz: number;
  triggerPx: number;
};

export interface OpenOrdersJsonPage {
  orders: OpenOrderJson[];
  /** Opaque; null on the last page. */
  nextCursor: string | null;
}

const toJson = (o: OpenOrderRecord): OpenOrderJson => ({
  ...o,
  limitPx: jsonNumber(o.limitPx),
  sz: jsonNumber(o.sz),
  origSz: jsonNumber(o.origSz),
  triggerPx: jsonNumber(o.triggerPx),
});

/** The rules of the order-snapshot routes over the snapshots OrderSnapshotsQueries reads. */
@Injectable()
export class OrderSnapshotPagesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: OrderSnapshotsQueries,
    private readonly coins: CoinsService,
    private readonly cursors: KeysetCursorCodec,
  ) {}

  /** The newest snapshot's time, ISO 8601 with ms; a NotFoundError before the first snapshot. */
  async latestTimestamp(): Promise<string> {
    const latest = await this.queries.latestSnapshot(this.dataSource);
    if (latest === null) throw new NotFoundError(NO_SNAPSHOT_YET);
    return latest.snapshotTs;
  }

  /**
   * A page of the newest snapshot. A cursor keeps reading the snapshot its first page came from, so a
   * snapshot taken while a client walks the pages neither repeats nor skips an order.
   */
  async latest(request: OrderSnapshotPageRequest): Promise<OpenOrdersJsonPage> {
    const filters = this.checkFilters(request);
    const cursor = this.decodeCursor(request.nextCursor);
    let snapshotMs = cursor?.snapshotMs;
    if (snapshotMs === undefined) {
      const latest = await this.queries.latestSnapshot(this.dataSource);
      if (latest === null) throw new NotFoundError(NO_SNAPSHOT_YET);
      snapshotMs = Date.parse(latest.snapshotTs);
    }
    return this.read(snapshotMs, filters, request, cursor);
  }

  /**
   * A page of the snapshot at `snapshotTime`: ISO 8601, on the 5-minute grid, within the last 30 days and
   * not in the future (each an InvalidInputError on snapshotTime); a grid time without a snapshot is a
   * NotFoundError. Every order open at that time is in it, however long before it was placed.
   */
  async at(snapshotTime: string, request: OrderSnapshotPageRequest): Promise<OpenOrdersJsonPage> {
    const snapshotMs = snapshotTimeMs(snapshotTime, Date.now());
    const filters = this.checkFilters(request);
    const cursor = this.decodeCursor(request.nextCursor);
    if (cursor && cursor.snapshotMs !== snapshotMs) {
      throw new InvalidInputError(
        'nextCursor',
        `nextCursor continues the snapshot of ${isoTime(cursor.snapshotMs)}, not this one; start again without it`,
      );
    }
    return this.read(snapshotMs, filters, request, cursor);
  }

  /** Bad input is a 400 before anything is looked up. */
  private checkFilters(request: OrderSnapshotPageRequest): { start?: number; end?: number } {
    const limit = request.limit ?? ORDER_SNAPSHOTS_DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > ORDER_SNAPSHOTS_MAX_LIMIT) {
      throw new InvalidInputError('limit', `limit must be an integer from 1 to ${ORDER_SNAPSHOTS_MAX_LIMIT}`);
    }
    const start = request.start === undefined ? undefined : queryTimeMs('start', request.start);
    const end = request.end === undefined ? undefined : queryTimeMs('end', request.end);
    // An empty range is a mistake rather than a question with an empty answer.
    if (start !== undefined && end !== undefined && end < start) throw new InvalidInputError('end', 'end must not be before start');
    return { start, end };
  }

  private decodeCursor(nextCursor: string | undefined): { snapshotMs: number; address: string; oid: number } | null {
    if (nextCursor === undefined) return null;
    const [snapshotMs, address, oid] = this.cursors.decode(LIST, nextCursor, ['number', 'string', 'number'] as const);
    return { snapshotMs, address, oid };
  }

  private async read(
    snapshotMs: number,
    times: { start?: number; end?: number },
    request: OrderSnapshotPageRequest,
    cursor: { address: string; oid: number } | null,
  ): Promise<OpenOrdersJsonPage> {
    const coin = request.coin === undefined ? undefined : await this.coins.resolve(request.coin);
    const filters = { coin, address: request.address?.toLowerCase(), oid: request.oid, orderType: request.orderType, ...times };
    const limit = request.limit ?? ORDER_SNAPSHOTS_DEFAULT_LIMIT;
    const page = await this.queries.openAt(
      this.dataSource,
      snapshotMs,
      filters,
      limit,
      cursor && { address: cursor.address, oid: cursor.oid },
    );
    if (page === null) {
      // On the grid and within 30 days, but not taken (before the first block read, or a feed gap), or
      // (a /latest cursor's snapshot) dropped by retention since.
      throw new NotFoundError(
        cursor ? `The snapshot of ${isoTime(snapshotMs)} is no longer kept` : `No order snapshot was taken at ${isoTime(snapshotMs)}`,
      );
    }
    return {
      orders: page.orders.map(toJson),
      nextCursor: page.nextCursor && this.cursors.encode(LIST, [snapshotMs, page.nextCursor.address, page.nextCursor.oid]),
    };
  }
}
