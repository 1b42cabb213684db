import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { KeysetCursorCodec } from '#database';
import type { ClosedTrade } from '../../closed-trades/closed-trade.types.js';
import { ClosedTradesQueries } from './closed-trades.queries.js';

/** The cursor's list name: a cursor of another list is refused. */
const LIST = 'closed-trades';

export interface ClosedTradesPageRequest {
  address: string;
  /** Inclusive bounds on closeTime, epoch ms; omitted = unbounded. */
  startTime?: number;
  endTime?: number;
  limit: number;
  /** The `nextCursor` of the previous page, as the caller sent it back. */
  nextCursor?: string | null;
}

export interface ClosedTradesResult {
  trades: ClosedTrade[];
  /** Opaque; null on the last page. */
  nextCursor: string | null;
}

@Injectable()
export class ClosedTradesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: ClosedTradesQueries,
    private readonly cursors: KeysetCursorCodec,
  ) {}

  /** One page of a wallet's closed trades, newest first. A cursor this list did not issue is an InvalidCursorError. */
  async page({ nextCursor, ...query }: ClosedTradesPageRequest): Promise<ClosedTradesResult> {
    const after = nextCursor == null ? null : this.cursors.decode(LIST, nextCursor, ['number', 'string'] as const);
    const page = await this.queries.listByAddress(this.dataSource, { ...query, after: after && { closeTime: after[0], hash: after[1] } });
    return { trades: page.trades, nextCursor: page.next && this.cursors.encode(LIST, [page.next.closeTime, page.next.hash]) };
  }
}
