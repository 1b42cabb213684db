import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoTime } from '#database';
import { InvalidInputError } from '#errors';
import { jsonNumber } from '../json-number.js';
import { LeaderboardsQueries } from './leaderboards.queries.js';
import {
  LEADERBOARD_LIMITS,
  PNL_FIELDS,
  type PnlField,
  type PnlLeaderboard,
  type PnlLeaderboardEntry,
  type PnlLeaderboardRecord,
  type PnlLeaderboardRequest,
} from './leaderboards.types.js';

export const LEADERBOARD_DEFAULT_LIMIT = 25;
/** Far past any number of wallets, and within what Postgres takes as an OFFSET. */
export const LEADERBOARD_MAX_OFFSET = 1_000_000_000;

/**
 * The all-time PnL leaderboard over every known wallet. Day, week and month PnL are the all-time PnL of
 * the latest state update minus the wallet's all-time PnL at the newest update at or before 24 hours,
 * 7 days or 30 days earlier (exchange time; a wallet first seen since then counts from its first
 * recorded PnL). `rank` is the position by `rankBy`, highest first (ties by address), whatever the page
 * order; pages are ordered by `orderBy` in `order`, ties by address ascending, so offsets never repeat or
 * skip a wallet.
 */
@Injectable()
export class LeaderboardsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: LeaderboardsQueries,
  ) {}

  async allPnl(request: PnlLeaderboardRequest): Promise<PnlLeaderboard> {
    const order = required(request.order, 'order', ['asc', 'desc']);
    const orderBy = required(request.orderBy, 'orderBy', PNL_FIELDS) as PnlField;
    const rankBy = required(request.rankBy, 'rankBy', PNL_FIELDS) as PnlField;
    const limit = request.limit ?? LEADERBOARD_DEFAULT_LIMIT;
    const offset = request.offset ?? 0;
    if (!(LEADERBOARD_LIMITS as readonly number[]).includes(limit)) {
      throw new InvalidInputError('limit', `limit must be one of the following values: ${LEADERBOARD_LIMITS.join(', ')}`);
    }
    if (!Number.isInteger(offset) || offset < 0 || offset > LEADERBOARD_MAX_OFFSET) {
      throw new InvalidInputError('offset', `offset must be an integer from 0 to ${LEADERBOARD_MAX_OFFSET}`);
    }
    // One snapshot: the page, the count, the sum and the assets of the same state update.
    const { page, assets } = await this.dataSource.transaction('REPEATABLE READ', async (q) => ({
      page: await this.queries.page(q, { orderBy, descending: order === 'desc', rankBy, offset, limit }),
      assets: await this.queries.assets(q),
    }));
    return {
      totalCount: page.totalCount,
      assetsDistribution: assets.map((a) => ({ coin: a.coin, value: jsonNumber(a.value) })),
      sumPnl: jsonNumber(page.sumPnl),
      data: page.rows.map(entry),
    };
  }
}

function required(value: string | undefined, field: string, allowed: readonly string[]): string {
  if (value === undefined || !allowed.includes(value))
    throw new InvalidInputError(field, `${field} must be one of the following values: ${allowed.join(', ')}`);
  return value;
}

function entry(r: PnlLeaderboardRecord): PnlLeaderboardEntry {
  return {
    address: r.address,
    age: r.ageMs,
    totalValue: jsonNumber(r.totalEquity),
    stableValue: jsonNumber(r.stableValue),
    topHolding: r.topHolding,
    pnlDay: jsonNumber(r.pnlDay),
    pnlWeek: jsonNumber(r.pnlWeek),
    pnlMonth: jsonNumber(r.pnlMonth),
    pnlAllTime: jsonNumber(r.pnlAllTime),
    rank: r.rank,
    profile: {
      mid: null,
      tidewatchId: null,
      xUserId: r.xUserId,
      displayName: r.displayName,
      emoji: r.emoji,
      verified: r.verified,
      segments: [r.sizeCohortId, r.pnlCohortId],
      address: r.address,
      favoriteCount: r.favoriteCount,
      earliestActivityAt: isoTime(r.earliestActivityAt),
      totalEquity: jsonNumber(r.totalEquity),
      perpPnl: jsonNumber(r.perpPnl),
      vault: null,
    },
  };
}
