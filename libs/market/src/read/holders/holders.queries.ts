import { Injectable } from '@nestjs/common';
import { epochMs, type SqlRunner, ReadsTables } from '#database';
import { favoriteCountJoin, toWalletProfileRecord, walletProfileColumns, type WalletProfileRow } from '../wallets/wallets.queries.js';
import type { HolderField, HolderHistoryRecord, HolderRecord } from './holders.types.js';

/** The column of the `holders` set below for each field a page can be ordered or ranked by (never user text in SQL). */
const HOLDER_COLUMN: Readonly<Record<HolderField, string>> = {
  totalAmount: 'total_amount',
  spotAmount: 'spot_hype',
  stakedAmount: 'staked_hype',
  totalAmountUsd: 'total_amount_usd',
  accountValue: 'perp_equity',
};

export interface HoldersQuery {
  orderBy: HolderField;
  descending: boolean;
  rankBy: HolderField;
  rankDescending: boolean;
  offset: number;
  limit: number;
  /** HYPE in circulation, exact decimal text. */
  circulatingSupply: string;
}

const txt = (expression: string): string => `trim_scale(${expression})::text`;

/**
 * The wallet's holder_history row at the newest update at or before `hours` before now, valued at that
 * update's HYPE price (0 without one, as the wallets' equity is).
 */
const historyAt = (alias: string, hours: number): string =>
  `LEFT JOIN LATERAL (
     SELECT ${epochMs('hh.created_at')} AS created_at, hh.spot_amount, hh.staked_amount, coalesce(u.hype_px, 0) AS px
     FROM holder_history hh LEFT JOIN state_updates u ON u.state_time = hh.created_at
     WHERE hh.address = r.address AND hh.created_at <= n.t - interval '${hours} hours'
     ORDER BY hh.created_at DESC LIMIT 1
   ) ${alias} ON TRUE`;

const historyColumns = (alias: string): string =>
  [
    `${alias}.created_at AS ${alias}_created_at`,
    `${txt(`${alias}.spot_amount`)} AS ${alias}_spot`,
    `${txt(`${alias}.spot_amount * ${alias}.px`)} AS ${alias}_spot_usd`,
    `${txt(`${alias}.staked_amount`)} AS ${alias}_staked`,
    `${txt(`${alias}.staked_amount * ${alias}.px`)} AS ${alias}_staked_usd`,
    `${txt(`${alias}.spot_amount + ${alias}.staked_amount`)} AS ${alias}_total`,
    `${txt(`(${alias}.spot_amount + ${alias}.staked_amount) * ${alias}.px`)} AS ${alias}_total_usd`,
  ].join(', ');

type Row = Record<string, string | number | boolean | null>;

function historyOf(r: Row, alias: string): HolderHistoryRecord | null {
  if (r[`${alias}_created_at`] === null) return null;
  return {
    createdAt: Number(r[`${alias}_created_at`]),
    spotAmount: r[`${alias}_spot`] as string,
    spotAmountUsd: r[`${alias}_spot_usd`] as string,
    stakedAmount: r[`${alias}_staked`] as string,
    stakedAmountUsd: r[`${alias}_staked_usd`] as string,
    totalAmount: r[`${alias}_total`] as string,
    totalAmountUsd: r[`${alias}_total_usd`] as string,
  };
}

/** What the HYPE holders route reads: wallets holding HYPE and their balance history. */
@Injectable()
@ReadsTables('wallets', 'holder_history', 'state_updates', 'wallet_favorite_counts')
export class HoldersQueries {
  /**
   * Wallets with HYPE (spot plus staked above 0) as of their latest state update, ranked by `rankBy`
   * (ties by address ascending), one page in the requested order (ties by address ascending) with the
   * number of holders. One row comes back even for an empty page, so the count is always read.
   */
  async page(q: SqlRunner, query: HoldersQuery): Promise<{ totalCount: number; rows: HolderRecord[] }> {
    const pageOrder = `r.${HOLDER_COLUMN[query.orderBy]} ${query.descending ? 'DESC' : 'ASC'}, r.address`;
    const rows: Row[] = await q.query(
      `WITH n AS (SELECT max(state_time) AS t FROM state_updates),
       holders AS (
         SELECT w.*, w.spot_hype + w.staked_hype AS total_amount, w.spot_equity + w.staked_equity AS total_amount_usd
         FROM wallets w WHERE w.spot_hype + w.staked_hype > 0
       ),
       ranked AS (
         SELECT holders.*, row_number() OVER (ORDER BY ${HOLDER_COLUMN[query.rankBy]} ${query.rankDescending ? 'DESC' : 'ASC'}, address) AS rank FROM holders
       )
       SELECT (SELECT count(*)::int FROM ranked) AS total_count, page.*
       FROM (SELECT 1) one
       LEFT JOIN LATERAL (
         SELECT ${walletProfileColumns('r')},
                ${txt('r.spot_hype')} AS spot_amount, ${txt('r.spot_equity')} AS spot_amount_usd,
                ${txt('r.staked_hype')} AS staked_amount, ${txt('r.staked_equity')} AS staked_amount_usd,
                ${txt('r.total_amount')} AS total_amount, ${txt('r.total_amount_usd')} AS total_amount_usd, r.rank,
                ${txt('round(r.total_amount * 100 / $3::numeric, 8)')} AS percent_of_supply,
                ${historyColumns('d')}, ${historyColumns('wk')}
         -- The page first, then its rows' history: looked up for every holder, the history cost a minute on 90,000 holders.
         FROM (SELECT * FROM ranked r ORDER BY ${pageOrder} OFFSET $1 LIMIT $2) r CROSS JOIN n
         ${favoriteCountJoin('r')}
         ${historyAt('d', 24)}
         ${historyAt('wk', 7 * 24)}
         ORDER BY ${pageOrder}
       ) page ON TRUE`,
      [query.offset, query.limit, query.circulatingSupply],
    );
    return {
      totalCount: (rows[0]?.total_count as number | undefined) ?? 0,
      rows: rows
        .filter((r) => r.address !== null)
        .map((r) => ({
          address: r.address as string,
          spotAmount: r.spot_amount as string,
          spotAmountUsd: r.spot_amount_usd as string,
          stakedAmount: r.staked_amount as string,
          stakedAmountUsd: r.staked_amount_usd as string,
          totalAmount: r.total_amount as string,
          totalAmountUsd: r.total_amount_usd as string,
          rank: Number(r.rank),
          percentOfSupply: r.percent_of_supply as string,
          // The holder's account value is its perp equity (Hyperliquid's accountValue).
          wallet: toWalletProfileRecord(r as unknown as WalletProfileRow),
          history24h: historyOf(r, 'd'),
          history7d: historyOf(r, 'wk'),
        })),
    };
  }
}
