import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoTime, KeysetCursorCodec } from '#database';
import { InvalidInputError } from '#errors';
import type { ListedClosedTrade, TradeOutcome } from '../../closed-trades/closed-trade.types.js';
import { jsonNumber, jsonNumberOrNull } from '../json-number.js';
import { queryTimeMs } from '../query-time.js';
import { ClosedTradesQueries } from './closed-trades.queries.js';

/** The cursor's list name: a cursor of another list is refused. */
const LIST = 'closed-trades';
/** The route's cursors also carry the window they page, so they are another list. */
const WINDOW_LIST = 'closed-trades-window';

const DAY_MS = 24 * 3_600_000;
export const CLOSED_TRADES_DEFAULT_LIMIT = 100;
export const CLOSED_TRADES_MAX_LIMIT = 500;
/** the API contract: startTime defaults to endTime minus 7 days, and the two are at most 30 days apart. */
export const CLOSED_TRADES_DEFAULT_WINDOW_MS = 7 * DAY_MS;
export const CLOSED_TRADES_MAX_WINDOW_MS = 30 * DAY_MS;

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
  trades: ListedClosedTrade[];
  /** Opaque; null on the last page. */
  nextCursor: string | null;
}

/** The route's request, as the query gives it. */
export interface ClosedTradesListRequest {
  /** 0x and 40 hex digits, any case. */
  address: string;
  /** ISO 8601 (a time without a zone is UTC); default endTime minus 7 days. */
  startTime?: string;
  /** ISO 8601; default now. */
  endTime?: string;
  /** 1..500; default 100. */
  limit?: number;
  nextCursor?: string;
}

/** The contract's Closed trade: numbers as JSON numbers, times ISO 8601, duration in ms. */
export interface ClosedTradeJson {
  address: string;
  hash: string;
  id: string;
  side: 'long' | 'short';
  coin: string;
  avgExit: number | null;
  avgEntry: number | null;
  duration: number;
  openTime: string;
  closeTime: string;
  partial: boolean;
  totalSize: number;
  totalUsd: number;
  realizedPnlUsd: number;
  countFills: number;
  fee: number;
  feeUsd: number;
  fundingUsd: number;
  netPnlUsd: number;
  outcome: TradeOutcome;
}

export interface ClosedTradesJsonPage {
  trades: ClosedTradeJson[];
  /** Opaque; null on the last page. */
  nextCursor: string | null;
}

/**
 * The contract's fields, and the net result and outcome the summary counts the trade under; the stored
 * extras (carriedSize, exitSize, exitUsd) stay inside.
 */
export function toClosedTradeJson(t: ListedClosedTrade): ClosedTradeJson {
  return {
    address: t.address,
    hash: t.hash,
    id: t.id,
    side: t.side,
    coin: t.coin,
    avgExit: jsonNumberOrNull(t.avgExit),
    avgEntry: jsonNumberOrNull(t.avgEntry),
    duration: t.duration,
    openTime: isoTime(t.openTime),
    closeTime: isoTime(t.closeTime),
    partial: t.partial,
    totalSize: jsonNumber(t.totalSize),
    totalUsd: jsonNumber(t.totalUsd),
    realizedPnlUsd: jsonNumber(t.realizedPnlUsd),
    countFills: t.countFills,
    fee: jsonNumber(t.fee),
    feeUsd: jsonNumber(t.feeUsd),
    fundingUsd: jsonNumber(t.fundingUsd),
    netPnlUsd: jsonNumber(t.netPnlUsd),
    outcome: t.outcome,
  };
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

  /**
   * The route: one page of a wallet's trades closed in [startTime, endTime] (inclusive), newest first by
   * close time, ties by hash descending. The cursor carries the window of its first page, so walking the
   * pages of a window that defaulted to "now" never shifts it; a page request naming another startTime or
   * endTime than its cursor's is an InvalidInputError on nextCursor.
   */
  async list(request: ClosedTradesListRequest): Promise<ClosedTradesJsonPage> {
    const limit = request.limit ?? CLOSED_TRADES_DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > CLOSED_TRADES_MAX_LIMIT) {
      throw new InvalidInputError('limit', `limit must be an integer from 1 to ${CLOSED_TRADES_MAX_LIMIT}`);
    }
    let startTime = request.startTime === undefined ? undefined : queryTimeMs('startTime', request.startTime);
    let endTime = request.endTime === undefined ? undefined : queryTimeMs('endTime', request.endTime);
    const cursor =
      request.nextCursor === undefined
        ? null
        : this.cursors.decode(WINDOW_LIST, request.nextCursor, ['number', 'string', 'number', 'number'] as const);
    if (cursor) {
      const [, , cursorStart, cursorEnd] = cursor;
      if ((startTime !== undefined && startTime !== cursorStart) || (endTime !== undefined && endTime !== cursorEnd)) {
        throw new InvalidInputError(
          'nextCursor',
          'nextCursor continues another window: send the same startTime and endTime as the first page, or none',
        );
      }
      [startTime, endTime] = [cursorStart, cursorEnd];
    }
    endTime ??= Date.now();
    startTime ??= endTime - CLOSED_TRADES_DEFAULT_WINDOW_MS;
    if (endTime < startTime) throw new InvalidInputError('endTime', 'endTime must not be before startTime');
    if (endTime - startTime > CLOSED_TRADES_MAX_WINDOW_MS)
      throw new InvalidInputError('endTime', 'endTime must be at most 30 days after startTime');

    const page = await this.queries.listByAddress(this.dataSource, {
      address: request.address,
      startTime,
      endTime,
      limit,
      after: cursor && { closeTime: cursor[0], hash: cursor[1] },
    });
    return {
      trades: page.trades.map(toClosedTradeJson),
      nextCursor: page.next && this.cursors.encode(WINDOW_LIST, [page.next.closeTime, page.next.hash, startTime, endTime]),
    };
  }
}
