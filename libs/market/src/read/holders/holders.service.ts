import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '#config';
import { isoTime } from '#database';
import { InvalidInputError } from '#errors';
import { walletProfile } from '../wallets/wallet-profile.js';
import { jsonNumber } from '../json-number.js';
import { HoldersQueries } from './holders.queries.js';
import {
  HOLDER_FIELDS,
  type HolderEntry,
  type HolderField,
  type HolderHistoryRecord,
  type HolderHistoryEntry,
  type HoldersPage,
  type HoldersRequest,
} from './holders.types.js';

export const HOLDERS_DEFAULT_LIMIT = 500;
export const HOLDERS_MAX_LIMIT = 500;
/** Far past any number of wallets, and within what Postgres takes as an OFFSET. */
export const HOLDERS_MAX_OFFSET = 1_000_000_000;
const DIRECTIONS = ['asc', 'desc'] as const;

/**
 * HYPE holders: every wallet whose latest state update shows HYPE (spot plus staked above 0). USD values
 * are the amounts at the HYPE price of that update; accountValue is the perp account value (perp
 * equity); percentOfCirculatingSupply = total amount / HYPE_CIRCULATING_SUPPLY * 100, 8 places. `rank`
 * is the position by `rankBy` in `rankOrder` (ties by address), whatever the page order; pages are
 * ordered by `orderBy` in `order`, ties by address ascending, so offsets never repeat or skip a holder.
 * history.24h / 7d: the balance at the newest state update at or before 24 hours / 7 days before the
 * latest one (balances are stored when they change), at that update's HYPE price; null without one.
 */
@Injectable()
export class HoldersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: HoldersQueries,
    private readonly config: AppConfig,
  ) {}

  async page(request: HoldersRequest = {}): Promise<HoldersPage> {
    const order = oneOf(request.order ?? 'desc', 'order', DIRECTIONS);
    const rankOrder = oneOf(request.rankOrder ?? 'desc', 'rankOrder', DIRECTIONS);
    const orderBy = oneOf(request.orderBy ?? 'totalAmount', 'orderBy', HOLDER_FIELDS) as HolderField;
    const rankBy = oneOf(request.rankBy ?? 'totalAmount', 'rankBy', HOLDER_FIELDS) as HolderField;
    const limit = request.limit ?? HOLDERS_DEFAULT_LIMIT;
    const offset = request.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > HOLDERS_MAX_LIMIT)
      throw new InvalidInputError('limit', `limit must be an integer from 1 to ${HOLDERS_MAX_LIMIT}`);
    if (!Number.isInteger(offset) || offset < 0 || offset > HOLDERS_MAX_OFFSET) {
      throw new InvalidInputError('offset', `offset must be an integer from 0 to ${HOLDERS_MAX_OFFSET}`);
    }
    const page = await this.queries.page(this.dataSource, {
      orderBy,
      descending: order === 'desc',
      rankBy,
      rankDescending: rankOrder === 'desc',
      offset,
      limit,
      circulatingSupply: this.config.HYPE_CIRCULATING_SUPPLY,
    });
    return {
      items: page.rows.map((r): HolderEntry => ({
        address: r.address,
        spotAmount: jsonNumber(r.spotAmount),
        spotAmountUsd: jsonNumber(r.spotAmountUsd),
        stakedAmount: jsonNumber(r.stakedAmount),
        stakedAmountUsd: jsonNumber(r.stakedAmountUsd),
        totalAmount: jsonNumber(r.totalAmount),
        totalAmountUsd: jsonNumber(r.totalAmountUsd),
        earliestActivityAt: isoTime(r.wallet.earliestActivityAt),
        accountValue: jsonNumber(r.wallet.perpEquity),
        rank: r.rank,
        percentOfCirculatingSupply: jsonNumber(r.percentOfSupply),
        wallet: { ...walletProfile(r.wallet), mid: null, tidewatchId: null },
        history: { '24h': historyEntry(r.address, r.history24h), '7d': historyEntry(r.address, r.history7d) },
      })),
      totalCount: page.totalCount,
    };
  }
}

function oneOf(value: string, field: string, allowed: readonly string[]): string {
  if (!allowed.includes(value)) throw new InvalidInputError(field, `${field} must be one of the following values: ${allowed.join(', ')}`);
  return value;
}

function historyEntry(address: string, h: HolderHistoryRecord | null): HolderHistoryEntry | null {
  if (h === null) return null;
  return {
    id: `${address}:${h.createdAt}`,
    address,
    spotAmount: jsonNumber(h.spotAmount),
    spotAmountUsd: jsonNumber(h.spotAmountUsd),
    stakedAmount: jsonNumber(h.stakedAmount),
    stakedAmountUsd: jsonNumber(h.stakedAmountUsd),
    totalAmount: jsonNumber(h.totalAmount),
    totalAmountUsd: jsonNumber(h.totalAmountUsd),
    createdAt: isoTime(h.createdAt),
  };
}
