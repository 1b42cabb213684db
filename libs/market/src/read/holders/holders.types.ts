import type { WalletProfileRecord } from '../wallets/wallets.queries.js';
import type { WalletProfile } from '../wallets/wallets.types.js';
// HYPE holders: decimals are exact strings up to the service, JSON numbers in the response.

export const HOLDER_FIELDS = ['totalAmount', 'spotAmount', 'stakedAmount', 'totalAmountUsd', 'accountValue'] as const;
export type HolderField = (typeof HOLDER_FIELDS)[number];

export interface HoldersRequest {
  offset?: number;
  /** 1..500; default 500. */
  limit?: number;
  order?: string;
  orderBy?: string;
  rankBy?: string;
  rankOrder?: string;
}

/** A holder_history row as read, with USD at that update's HYPE price. */
export interface HolderHistoryRecord {
  createdAt: number;
  spotAmount: string;
  spotAmountUsd: string;
  stakedAmount: string;
  stakedAmountUsd: string;
  totalAmount: string;
  totalAmountUsd: string;
}

export interface HolderRecord {
  address: string;
  spotAmount: string;
  spotAmountUsd: string;
  stakedAmount: string;
  stakedAmountUsd: string;
  totalAmount: string;
  totalAmountUsd: string;
  rank: number;
  percentOfSupply: string;
  /** The wallets row; its perp equity is the holder's account value. */
  wallet: WalletProfileRecord;

  history24h: HolderHistoryRecord | null;
  history7d: HolderHistoryRecord | null;
}

export interface HolderHistoryEntry {
  /** The row's identity: `<address>:<createdAt in epoch ms>` (a wallet has one row per update at most). */
  id: string;
  address: string;
  spotAmount: number;
  spotAmountUsd: number;
  stakedAmount: number;
  stakedAmountUsd: number;
  totalAmount: number;
  totalAmountUsd: number;
  createdAt: string;
}

/** The API contract's wallet profile plus `mid` and the service id field, both null. */
export type HolderWallet = WalletProfile & { mid: null; tidewatchId: null };

export interface HolderEntry {
  address: string;
  spotAmount: number;
  spotAmountUsd: number;
  stakedAmount: number;
  stakedAmountUsd: number;
  totalAmount: number;
  totalAmountUsd: number;
  earliestActivityAt: string;
  accountValue: number;
  rank: number;
  percentOfCirculatingSupply: number;
  wallet: HolderWallet;
  history: { '24h': HolderHistoryEntry | null; '7d': HolderHistoryEntry | null };
}

export interface HoldersPage {
  items: HolderEntry[];
  totalCount: number;
}
