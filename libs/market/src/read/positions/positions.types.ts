/** One historical position as the positions route returns it (JSON numbers, times ISO with ms): PositionsQueries renders it. */
export interface PositionRecord {
  id: number;
  address: string;
  coin: string;
  dex: string;
  side: 'long' | 'short';
  size: number;
  value: number;
  entryPrice: number;
  unrealizedPnl: number;
  funding: number;
  liquidationPrice: number | null;
  liquidationProgress: number | null;
  leverageType: string;
  leverage: number;
  marginUsed: number;
  openTime: string;
  /** The real close time, whatever window was asked for; null while the position is open. */
  closeTime: string | null;
  /** When the record was stored (the state update that first showed the position). */
  createdAt: string;
  updatedAt: string;
}

export interface PositionsPageRequest {
  /** 1..500; default 500. */
  limit?: number;
  /** Any case; an unknown market is a NotFoundError. */
  coin?: string;
  /** The `nextCursor` of the previous page, as the caller sent it back. */
  nextCursor?: string;
  /** Wallet addresses (0x + 40 hex digits, any case). */
  address?: string[];
  /** ISO 8601; default `end` minus 24 hours. */
  start?: string;
  /** ISO 8601; default now. */
  end?: string;
  /** true: only open positions; false: only closed ones; omitted: both. */
  open?: boolean;
  /** A cohort id: positions of the wallets in it now. */
  segmentId?: number;
}

/** The positions route's body. */
export interface PositionsPage {
  positions: PositionRecord[];
  /** Opaque; null on the last page. */
  nextCursor: string | null;
}

export const OPEN_POSITIONS_HISTORY_COLUMNS = [
  'coin',
  'timestamp',
  'positionCount',
  'positionCountLong',
  'totalPositionValue',
  'totalPositionValueLong',
] as const;

/** [coin, timestamp (ISO), positionCount, positionCountLong, totalPositionValue, totalPositionValueLong] */
export type OpenPositionsHistoryRow = [string, string, number, number, number, number];

export interface OpenPositionsHistoryRequest {
  /** ISO 8601, inclusive; omitted: from the first update. */
  start?: string;
  /** ISO 8601, inclusive; omitted: up to the latest update. */
  end?: string;
  /** 1..500 rows; default 500. */
  limit?: number;
}

export interface OpenPositionsHistory {
  coin: string;
  metrics: {
    columns: string[];
    data: OpenPositionsHistoryRow[];
  };
}
