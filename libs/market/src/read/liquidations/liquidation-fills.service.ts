import { queryTimeMs } from '../query-time.js';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JsonText, KeysetCursorCodec } from '#database';
import { InvalidInputError } from '#errors';
import type { Side } from '#exchange';
import { CoinsService } from '../coins/coins.service.js';
import { LiquidationFillsQueries } from './liquidation-fills.queries.js';

/** The cursor's list name: a cursor of another list is refused. */
const LIST = 'liquidation-fills';

export const LIQUIDATION_FILLS_DEFAULT_LIMIT = 500;
export const LIQUIDATION_FILLS_MAX_LIMIT = 500;
/** the API contract: `end` at most 3 months after `start`. */
export const LIQUIDATION_FILLS_MAX_WINDOW_MONTHS = 3;

export interface LiquidationFillsRequest {
  /** 1..500; default 500. */
  limit?: number;
  /** Any case; a market never seen is a NotFoundError. */
  coin?: string;
  /** The fill's wallet, any case. */
  address?: string;
  side?: Side;
  /** ISO 8601 (a time without a zone is UTC). Alone: from `start` to now. */
  start?: string;
  /** ISO 8601 (a time without a zone is UTC); only with `start`, later than it, at most 3 calendar months after it. */
  end?: string;
  /** The `nextCursor` of the previous page, as the caller sent it back. */
  nextCursor?: string | null;
}

@Injectable()
export class LiquidationFillsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: LiquidationFillsQueries,
    private readonly coins: CoinsService,
    private readonly cursors: KeysetCursorCodec,
  ) {}

  /**
   * One page of liquidation fills, newest first (ties by tid, then address, descending), as the body
   * `{fills, nextCursor}` (nextCursor opaque, null on the last page). Bad input is an
   * InvalidInputError naming the field; an unknown coin a NotFoundError; a cursor this list did not issue
   * an InvalidCursorError.
   */
  async page({
    limit = LIQUIDATION_FILLS_DEFAULT_LIMIT,
    coin,
    address,
    side,
    start,
    end,
    nextCursor,
  }: LiquidationFillsRequest): Promise<JsonText> {
    if (!Number.isInteger(limit) || limit < 1 || limit > LIQUIDATION_FILLS_MAX_LIMIT) {
      throw new InvalidInputError('limit', `limit must be an integer from 1 to ${LIQUIDATION_FILLS_MAX_LIMIT}`);
    }
    const { startMs, endMs } = timeWindow(start, end);
    const after = nextCursor == null ? null : this.cursors.decode(LIST, nextCursor, ['number', 'string', 'string'] as const);
    const page = await this.queries.list(this.dataSource, {
      coin: coin === undefined ? undefined : await this.coins.resolve(coin),
      address,
      side,
      startMs,
      endMs,
      limit,
      after: after && { timeMs: after[0], tid: after[1], address: after[2] },
    });
    return JsonText.object({ fills: page.json, nextCursor: page.next && this.cursors.encode(LIST, page.next) });
  }
}

/**
 * The contract's window rules. `start` alone has no upper bound: from `start` to the newest fill (now).
 * "3 months" is calendar months in UTC, a day past the target month's end clamped to its last day
 * (31 January + 3 months = 30 April), as Postgres adds `interval '3 months'`.
 */
function timeWindow(start: string | undefined, end: string | undefined): { startMs?: number; endMs?: number } {
  if (end !== undefined && start === undefined) throw new InvalidInputError('end', 'end is only accepted together with start');
  const startMs = start === undefined ? undefined : queryTimeMs('start', start);
  const endMs = end === undefined ? undefined : queryTimeMs('end', end);
  if (startMs === undefined || endMs === undefined) return { startMs };
  if (endMs <= startMs) throw new InvalidInputError('end', 'end must be later than start');
  if (endMs > addUtcMonths(startMs, LIQUIDATION_FILLS_MAX_WINDOW_MONTHS)) {
    throw new InvalidInputError('end', `end must be at most ${LIQUIDATION_FILLS_MAX_WINDOW_MONTHS} months after start`);
  }
  return { startMs, endMs };
}

function addUtcMonths(ms: number, months: number): number {
  const at = new Date(ms);
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    month,
    Math.min(at.getUTCDate(), lastDay),
    at.getUTCHours(),
    at.getUTCMinutes(),
    at.getUTCSeconds(),
    at.getUTCMilliseconds(),
  );
}
