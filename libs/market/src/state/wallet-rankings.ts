/**
 * The wallets list's sorted orders, precomputed at each state update (WalletStateRepository.writeRankings)
 * so that a page of the unfiltered list is a range of positions instead of a sort of every wallet. The
 * columns with an index of their own (address, earliest_activity_at, count_open_positions) are walked on
 * it and have no ranking.
 *
 * A ranking lists every wallet's address in the list's order: the column in the ranking's direction, then
 * the address in the same direction, nulls last. The ascending order of a column that is never null is
 * the descending ranking read backwards; a nullable column's is not (its nulls stay last), so it has both.
 * Addresses are stored in chunks of WALLET_RANKING_CHUNK positions, a row each: a page reads one or two.
 */
export const WALLET_RANKING_CHUNK = 500;

export interface WalletRanking {
  /** wallet_rankings.ranking: `<column> desc` or `<column> asc`. */
  name: string;
  column: string;
  descending: boolean;
  nullable: boolean;
}

const RANKED_COLUMNS: ReadonlyArray<{ column: string; nullable: boolean }> = [
  { column: 'total_equity', nullable: false },
  { column: 'perp_pnl', nullable: false },
  { column: 'perp_equity', nullable: false },
  { column: 'open_value', nullable: false },
  { column: 'sum_upnl', nullable: false },
  { column: 'perp_bias', nullable: true },
  { column: 'closest_liq_progress', nullable: true },
  { column: 'exposure_ratio', nullable: true },
];

export const WALLET_RANKINGS: readonly WalletRanking[] = RANKED_COLUMNS.flatMap(({ column, nullable }) =>
  (nullable ? [true, false] : [true]).map((descending) => ({
    name: `${column} ${descending ? 'desc' : 'asc'}`,
    column,
    descending,
    nullable,
  })),
);

/** The ORDER BY of a ranking, as the wallets list sorts: NULLS LAST only on a nullable column (see WalletsQueries). */
export function rankingOrder(r: WalletRanking): string {
  const direction = r.descending ? 'DESC' : 'ASC';
  return `${r.column} ${direction}${r.nullable ? ' NULLS LAST' : ''}, address ${direction}`;
}

/**
 * How to read positions `offset + 1` to `offset + limit` of the list sorted by `column` in a direction
 * from a ranking of `wallets` positions: the ranking, the positions range in it, and whether the page
 * reads it backwards. Null when the column has no ranking.
 */
export function rankedRange(
  column: string,
  descending: boolean,
  offset: number,
  limit: number,
  wallets: number,
): { ranking: string; first: number; last: number; backwards: boolean } | null {
  const own = WALLET_RANKINGS.find((r) => r.column === column && r.descending === descending);
  if (own) return { ranking: own.name, first: offset + 1, last: Math.min(wallets, offset + limit), backwards: false };
  const reversed = WALLET_RANKINGS.find((r) => r.column === column && r.descending !== descending && !r.nullable);
  if (!reversed) return null;
  return { ranking: reversed.name, first: Math.max(1, wallets - offset - limit + 1), last: wallets - offset, backwards: true };
}
