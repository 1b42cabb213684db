import { Injectable } from '@nestjs/common';
import { epochMs, type SqlRunner, ReadsTables } from '#database';
import { FAVORITE_COUNT, favoriteCountJoin } from '../wallets/wallets.queries.js';
import type { PnlField, PnlLeaderboardRecords } from './leaderboards.types.js';

/** The column of the `pnl` set below holding each leaderboard figure (a fixed list: never user text in SQL). */
const PNL_COLUMN: Readonly<Record<PnlField, string>> = {
  pnlDay: 'pnl_day',
  pnlWeek: 'pnl_week',
  pnlMonth: 'pnl_month',
  pnlAllTime: 'pnl_all_time',
};

export interface PnlLeaderboardQuery {
  orderBy: PnlField;
  descending: boolean;
  rankBy: PnlField;
  offset: number;
  limit: number;
}

interface LeaderboardRow {
  total_count: number;
  sum_pnl: string;
  address: string | null;
  age_ms: string;
  total_equity: string;
  stable_value: string;
  top_holding: string | null;
  pnl_day: string;
  pnl_week: string;
  pnl_month: string;
  pnl_all_time: string;
  rank: string;
  x_user_id: string | null;
  display_name: string | null;
  emoji: string | null;
  verified: boolean;
  size_cohort_id: number;
  pnl_cohort_id: number;
  favorite_count: number;
  earliest_activity_at: string;
  perp_pnl: string;
}

/** What the PnL leaderboard reads: wallets, their PnL periods, favourite counts and open positions. */
@Injectable()
@ReadsTables('wallets', 'wallet_pnl_periods', 'positions', 'state_updates', 'wallet_favorite_counts')
export class LeaderboardsQueries {
  /**
   * Every known wallet with its PnL over the last 24 hours, 7 and 30 days before the latest state update
   * (all-time PnL now minus the PnL then; a wallet first seen since then counts from its first recorded
   * PnL; the state writer keeps these in wallet_pnl_periods, StateSnapshotsRepository.pnlPeriods), ranked
   * by `rankBy` descending (ties by address), and one page of them in the requested order (ties by
   * address ascending), with the count and the sum of `orderBy` over all of them. One row comes back even
   * for an empty page, so the count is always read.
   */
  async page(q: SqlRunner, query: PnlLeaderboardQuery): Promise<Omit<PnlLeaderboardRecords, 'assets'>> {
    const orderBy = PNL_COLUMN[query.orderBy];
    const rankBy = PNL_COLUMN[query.rankBy];
    const rows: LeaderboardRow[] = await q.query(
      // Ranked on narrow rows (the four figures and the address), the page's wallets read afterwards: a rank
      // over whole wallets rows sorted on disk.
      `WITH n AS (SELECT max(state_time) AS t FROM state_updates),
       pnl AS (
         SELECT w.address, p.pnl_day, p.pnl_week, p.pnl_month, w.perp_pnl AS pnl_all_time
         FROM wallets w JOIN wallet_pnl_periods p ON p.address = w.address
       ),
       ranked AS (SELECT pnl.*, row_number() OVER (ORDER BY ${rankBy} DESC, address) AS rank FROM pnl)
       SELECT (SELECT count(*)::int FROM ranked) AS total_count,
              (SELECT trim_scale(coalesce(sum(${orderBy}), 0))::text FROM ranked) AS sum_pnl,
              page.*
       FROM (SELECT 1) one
       LEFT JOIN LATERAL (
         SELECT r.address, ${epochMs('n.t')} - ${epochMs('w.earliest_activity_at')} AS age_ms,
                trim_scale(w.total_equity)::text AS total_equity, trim_scale(w.perp_equity - w.sum_upnl)::text AS stable_value,
                (SELECT p.coin FROM positions p WHERE p.address = r.address AND p.close_time IS NULL ORDER BY p.value DESC, p.coin COLLATE "C" LIMIT 1) AS top_holding,
                trim_scale(r.pnl_day)::text AS pnl_day, trim_scale(r.pnl_week)::text AS pnl_week, trim_scale(r.pnl_month)::text AS pnl_month,
                trim_scale(r.pnl_all_time)::text AS pnl_all_time, r.rank,
                w.x_user_id, w.display_name, w.emoji, w.verified, w.size_cohort_id, w.pnl_cohort_id, ${FAVORITE_COUNT},
                ${epochMs('w.earliest_activity_at')} AS earliest_activity_at, trim_scale(w.perp_pnl)::text AS perp_pnl
         FROM (SELECT * FROM ranked r ORDER BY r.${orderBy} ${query.descending ? 'DESC' : 'ASC'}, r.address OFFSET $1 LIMIT $2) r
         JOIN wallets w ON w.address = r.address CROSS JOIN n
         ${favoriteCountJoin()}
         ORDER BY r.${orderBy} ${query.descending ? 'DESC' : 'ASC'}, r.address
       ) page ON TRUE`,
      [query.offset, query.limit],
    );
    return {
      totalCount: rows[0]?.total_count ?? 0,
      sumPnl: rows[0]?.sum_pnl ?? '0',
      rows: rows
        .filter((r) => r.address !== null)
        .map((r) => ({
          address: r.address!,
          ageMs: Number(r.age_ms),
          totalEquity: r.total_equity,
          stableValue: r.stable_value,
          topHolding: r.top_holding,
          pnlDay: r.pnl_day,
          pnlWeek: r.pnl_week,
          pnlMonth: r.pnl_month,
          pnlAllTime: r.pnl_all_time,
          rank: Number(r.rank),
          xUserId: r.x_user_id,
          displayName: r.display_name,
          emoji: r.emoji,
          verified: r.verified,
          sizeCohortId: r.size_cohort_id,
          pnlCohortId: r.pnl_cohort_id,
          favoriteCount: r.favorite_count,
          earliestActivityAt: Number(r.earliest_activity_at),
          perpPnl: r.perp_pnl,
        })),
    };
  }

  /** Open position value per coin over every wallet, highest first, ties by coin (byte order). */
  async assets(q: SqlRunner): Promise<Array<{ coin: string; value: string }>> {
    return q.query(
      `SELECT coin, trim_scale(sum(value))::text AS value FROM positions WHERE close_time IS NULL
       GROUP BY coin ORDER BY sum(value) DESC, coin COLLATE "C"`,
    );
  }
}
