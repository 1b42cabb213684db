import { Injectable } from '@nestjs/common';
import { epochMs, ListQuery, type SqlRunner, ReadsTables } from '#database';
import { rankedRange, WALLET_RANKING_CHUNK } from '../../state/wallet-rankings.js';
import type { WalletOrderField } from './wallets.types.js';

/** A wallets row as a profile reads it: decimals exact text (trim_scale: the digits big.js would give), times epoch ms. */
export interface WalletProfileRecord {
  address: string;
  xUserId: string | null;
  displayName: string | null;
  emoji: string | null;
  verified: boolean;
  sizeCohortId: number;
  pnlCohortId: number;
  favoriteCount: number;
  totalEquity: string;
  earliestActivityAt: number;
  perpPnl: string;
  perpEquity: string;
  exposureRatio: string | null;
  perpBias: string | null;
  openValue: string;
  sumUpnl: string;
  closestLiqCoin: string | null;
  closestLiqProgress: string | null;
}

/** The columns WALLET_PROFILE_COLUMNS selects, as node-postgres gives them. */
export interface WalletProfileRow {
  address: string;
  x_user_id: string | null;
  display_name: string | null;
  emoji: string | null;
  verified: boolean;
  size_cohort_id: number;
  pnl_cohort_id: number;
  favorite_count: number;
  total_equity: string;
  earliest_activity_at: string;
  perp_pnl: string;
  perp_equity: string;
  exposure_ratio: string | null;
  perp_bias: string | null;
  open_value: string;
  sum_upnl: string;
  closest_liq_coin: string | null;
  closest_liq_progress: string | null;
}

const txt = (expression: string): string => `trim_scale(${expression})::text`;

/**
 * A wallet's favourite count lives beside the wallets row, in the favourites' own table (one domain per
 * table: the rows are the state writer's): `favoriteCountJoin(w)` joins it to the wallets row aliased `w`,
 * FAVORITE_COUNT reads it (0 for a wallet no consumer favours, which has no row).
 */
export const favoriteCountJoin = (w = 'w'): string => `LEFT JOIN wallet_favorite_counts fc ON fc.address = ${w}.address`;
export const FAVORITE_COUNT = 'coalesce(fc.favorite_count, 0) AS favorite_count';

/**
 * The profile columns of a wallets row (aliased `w` unless given) with its favourite count, which needs
 * FAVORITE_COUNT_JOIN of the same row in the FROM. The output names equal column names: an ORDER BY next to
 * them must name `w.<column>` (a bare name would sort by the text).
 */
export const walletProfileColumns = (w = 'w'): string => `
  ${w}.address, ${w}.x_user_id, ${w}.display_name, ${w}.emoji, ${w}.verified, ${w}.size_cohort_id, ${w}.pnl_cohort_id, ${FAVORITE_COUNT},
  ${txt(`${w}.total_equity`)} AS total_equity, ${epochMs(`${w}.earliest_activity_at`)} AS earliest_activity_at,
  ${txt(`${w}.perp_pnl`)} AS perp_pnl, ${txt(`${w}.perp_equity`)} AS perp_equity, ${txt(`${w}.exposure_ratio`)} AS exposure_ratio,
  ${txt(`${w}.perp_bias`)} AS perp_bias, ${txt(`${w}.open_value`)} AS open_value, ${txt(`${w}.sum_upnl`)} AS sum_upnl,
  ${w}.closest_liq_coin, ${txt(`${w}.closest_liq_progress`)} AS closest_liq_progress`;

export const WALLET_PROFILE_COLUMNS = walletProfileColumns();

export function toWalletProfileRecord(r: WalletProfileRow): WalletProfileRecord {
  return {
    address: r.address,
    xUserId: r.x_user_id,
    displayName: r.display_name,
    emoji: r.emoji,
    verified: r.verified,
    sizeCohortId: Number(r.size_cohort_id),
    pnlCohortId: Number(r.pnl_cohort_id),
    favoriteCount: Number(r.favorite_count),
    totalEquity: r.total_equity,
    earliestActivityAt: Number(r.earliest_activity_at),
    perpPnl: r.perp_pnl,
    perpEquity: r.perp_equity,
    exposureRatio: r.exposure_ratio,
    perpBias: r.perp_bias,
    openValue: r.open_value,
    sumUpnl: r.sum_upnl,
    closestLiqCoin: r.closest_liq_coin,
    closestLiqProgress: r.closest_liq_progress,
  };
}

/** The wallets column of each sort field (fixed names, never caller text), and whether it can be null. */
const ORDER_COLUMN: Readonly<Record<WalletOrderField, { column: string; nullable: boolean }>> = {
  address: { column: 'address', nullable: false },
  totalEquity: { column: 'total_equity', nullable: false },
  earliestActivityAt: { column: 'earliest_activity_at', nullable: false },
  perpPnl: { column: 'perp_pnl', nullable: false },
  perpEquity: { column: 'perp_equity', nullable: false },
  perpBias: { column: 'perp_bias', nullable: true },
  openValue: { column: 'open_value', nullable: false },
  sumUpnl: { column: 'sum_upnl', nullable: false },
  closestLiqProgress: { column: 'closest_liq_progress', nullable: true },
  countOpenPositions: { column: 'count_open_positions', nullable: false },
  exposureRatio: { column: 'exposure_ratio', nullable: true },
};

export interface WalletsQuery {
  orderBy: WalletOrderField;
  descending: boolean;
  offset: number;
  limit: number;
  /** Cohort ids: wallets whose size or pnl cohort is one of them. */
  cohortIds?: readonly number[];
  hasOpenPositions?: boolean;
  /** Lower case. */
  address?: string;
}

/**
 * The ORDER BY of a sort field: the field, then the address in the same direction (a total order, so
 * offset pages never repeat or skip a wallet); nulls last either way. NULLS LAST is written only for the
 * nullable columns: on a NOT NULL column it would keep a descending sort off its index.
 */
function orderBy(field: WalletOrderField, descending: boolean): string {
  const { column, nullable } = ORDER_COLUMN[field];
  const direction = descending ? 'DESC' : 'ASC';
  const key = `w.${column} ${direction}${nullable ? ' NULLS LAST' : ''}`;
  return column === 'address' ? key : `${key}, w.address ${direction}`;
}

/** What the wallet routes read of the `wallets` table the state writer keeps, with each wallet's favourite count. */
@Injectable()
@ReadsTables('wallets', 'wallet_rankings', 'wallet_rankings_status', 'wallet_favorite_counts')
export class WalletsQueries {
  /**
   * One offset page of the wallets matching the filters, with their number. Without filters the number
   * is the rankings' (written with the wallets at each state update) and a page sorted by a ranked column
   * is a range of its ranking (wallet-rankings.ts). Otherwise the page sorts only the addresses (a top-N
   * sort of narrow rows, or an index walk for address, age and position count) and then reads the
   * profiles of those at most `limit` rows. Run both in one snapshot (a repeatable-read transaction) so
   * the count and the page agree.
   */
  async page(q: SqlRunner, query: WalletsQuery): Promise<{ totalCount: number; records: WalletProfileRecord[] }> {
    const unfiltered = query.address === undefined && query.cohortIds === undefined && query.hasOpenPositions === undefined;
    // No rankings yet (a database the state writer has not updated since they exist): every page is sorted here.
    const status: Array<{ wallets: number }> = unfiltered ? await q.query(`SELECT wallets FROM wallet_rankings_status`) : [];
    if (status.length > 0) {
      const n = status[0]!.wallets;
      if (query.offset >= n) return { totalCount: n, records: [] };
      const range = rankedRange(ORDER_COLUMN[query.orderBy].column, query.descending, query.offset, query.limit, n);
      if (range) return { totalCount: n, records: await this.rankedPage(q, range) };
      return { totalCount: n, records: await this.sortedPage(q, new ListQuery(), query) };
    }
    const list = new ListQuery().whereDefined('w.address = ?', query.address);
    if (query.cohortIds)
      list.where('w.size_cohort_id = ANY(?::smallint[]) OR w.pnl_cohort_id = ANY(?::smallint[])', query.cohortIds, query.cohortIds);
    if (query.hasOpenPositions !== undefined)
      list.where(query.hasOpenPositions ? 'w.count_open_positions > 0' : 'w.count_open_positions = 0');
    const [{ n }]: Array<{ n: number }> = await q.query(`SELECT count(*)::int AS n FROM wallets w WHERE ${list.condition}`, [
      ...list.params,
    ]);
    // Past the last wallet the page is empty: no sort for it.
    if (query.offset >= n) return { totalCount: n, records: [] };
    return { totalCount: n, records: await this.sortedPage(q, list, query) };
  }

  private async sortedPage(q: SqlRunner, list: ListQuery, query: WalletsQuery): Promise<WalletProfileRecord[]> {
    const order = orderBy(query.orderBy, query.descending);
    const rows: WalletProfileRow[] = await q.query(
      `SELECT ${WALLET_PROFILE_COLUMNS}
       FROM wallets w ${favoriteCountJoin()}
       WHERE w.address IN (SELECT w.address FROM wallets w WHERE ${list.condition} ORDER BY ${order} OFFSET ${list.param(query.offset)} LIMIT ${list.param(query.limit)})
       ORDER BY ${order}`,
      list.params,
    );
    return rows.map(toWalletProfileRecord);
  }

  /** Positions first..last of a ranking (1-based), in order or backwards: the chunks holding them, their addresses, those wallets. */
  private async rankedPage(
    q: SqlRunner,
    range: { ranking: string; first: number; last: number; backwards: boolean },
  ): Promise<WalletProfileRecord[]> {
    const rows: WalletProfileRow[] = await q.query(
      `SELECT ${WALLET_PROFILE_COLUMNS}
       FROM wallet_rankings r
       CROSS JOIN LATERAL unnest(r.addresses) WITH ORDINALITY AS a(address, i)
       JOIN wallets w ON w.address = a.address
       ${favoriteCountJoin()}
       WHERE r.ranking = $1 AND r.chunk BETWEEN $2 AND $3 AND r.chunk * ${WALLET_RANKING_CHUNK} + a.i BETWEEN $4 AND $5
       ORDER BY r.chunk * ${WALLET_RANKING_CHUNK} + a.i ${range.backwards ? 'DESC' : 'ASC'}`,
      [
        range.ranking,
        Math.floor((range.first - 1) / WALLET_RANKING_CHUNK),
        Math.floor((range.last - 1) / WALLET_RANKING_CHUNK),
        range.first,
        range.last,
      ],
    );
    return rows.map(toWalletProfileRecord);
  }

  /** One wallet by its lower-case address; null when the service has not seen it. */
  async byAddress(q: SqlRunner, address: string): Promise<WalletProfileRecord | null> {
    const rows: WalletProfileRow[] = await q.query(
      `SELECT ${WALLET_PROFILE_COLUMNS} FROM wallets w ${favoriteCountJoin()} WHERE w.address = $1`,
      [address],
    );
    return rows[0] ? toWalletProfileRecord(rows[0]) : null;
  }
}
