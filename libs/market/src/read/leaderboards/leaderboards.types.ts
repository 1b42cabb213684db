// The PnL leaderboard: decimals are exact strings up to the service, JSON numbers in the response.

export const PNL_FIELDS = ['pnlDay', 'pnlWeek', 'pnlMonth', 'pnlAllTime'] as const;
export type PnlField = (typeof PNL_FIELDS)[number];

export const LEADERBOARD_LIMITS = [25, 50, 100] as const;

export interface PnlLeaderboardRequest {
  order?: string;
  orderBy?: string;
  rankBy?: string;
  /** 25, 50 or 100; default 25. */
  limit?: number;
  /** Default 0. */
  offset?: number;
}

/** One wallet of a page, as read (decimals as exact strings, times epoch ms). */
export interface PnlLeaderboardRecord {
  address: string;
  ageMs: number;
  totalEquity: string;
  stableValue: string;
  topHolding: string | null;
  pnlDay: string;
  pnlWeek: string;
  pnlMonth: string;
  pnlAllTime: string;
  rank: number;
  xUserId: string | null;
  displayName: string | null;
  emoji: string | null;
  verified: boolean;
  sizeCohortId: number;
  pnlCohortId: number;
  favoriteCount: number;
  earliestActivityAt: number;
  perpPnl: string;
}

export interface PnlLeaderboardRecords {
  totalCount: number;
  sumPnl: string;
  assets: Array<{ coin: string; value: string }>;
  rows: PnlLeaderboardRecord[];
}

/** The API contract's leaderboard profile, the service id field named after the service. */
export interface LeaderboardProfile {
  mid: null;
  tidewatchId: null;
  xUserId: string | null;
  displayName: string | null;
  emoji: string | null;
  verified: boolean;
  segments: number[];
  address: string;
  favoriteCount: number;
  earliestActivityAt: string;
  totalEquity: number;
  perpPnl: number;
  vault: null;
}

export interface PnlLeaderboardEntry {
  address: string;
  age: number;
  totalValue: number;
  stableValue: number;
  topHolding: string | null;
  pnlDay: number;
  pnlWeek: number;
  pnlMonth: number;
  pnlAllTime: number;
  rank: number;
  profile: LeaderboardProfile;
}

export interface PnlLeaderboard {
  totalCount: number;
  assetsDistribution: Array<{ coin: string; value: number }>;
  sumPnl: number;
  data: PnlLeaderboardEntry[];
}
