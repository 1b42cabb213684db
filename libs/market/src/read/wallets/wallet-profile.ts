import { isoTime } from '#database';
import { jsonNumber, jsonNumberOrNull } from '../json-number.js';
import type { WalletProfileRecord } from './wallets.queries.js';
import type { WalletProfile } from './wallets.types.js';

/** The response shape of a wallets row: exact decimals become JSON numbers here, at the edge. */
export function walletProfile(r: WalletProfileRecord): WalletProfile {
  return {
    xUserId: r.xUserId,
    displayName: r.displayName,
    emoji: r.emoji,
    verified: r.verified,
    segments: [r.sizeCohortId, r.pnlCohortId],
    address: r.address,
    favoriteCount: r.favoriteCount,
    totalEquity: jsonNumber(r.totalEquity),
    earliestActivityAt: isoTime(r.earliestActivityAt),
    perpPnl: jsonNumber(r.perpPnl),
    perpEquity: jsonNumber(r.perpEquity),
    exposureRatio: jsonNumberOrNull(r.exposureRatio),
    perpBias: jsonNumberOrNull(r.perpBias),
    openValue: jsonNumber(r.openValue),
    sumUpnl: jsonNumber(r.sumUpnl),
    vault: null,
    closestLiq: { coin: r.closestLiqCoin, progress: jsonNumberOrNull(r.closestLiqProgress) },
  };
}
