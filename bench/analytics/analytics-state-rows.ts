import type { AnalyticsDataset, PositionRow, WalletRow } from './analytics-dataset.js';

/**
 * The wallets and positions tables at the latest state update as COPY text: the columns
 * WalletStateRepository and PositionsStateRepository write (the rest keep their defaults; positions
 * get their ids from the sequence, in the order written). Wallets are rebuilt one at a time, so
 * neither pass holds more than a chunk.
 */

export const WALLET_COLUMNS =
  'address, earliest_activity_at, state_time, perp_equity, spot_equity, staked_equity, total_equity, perp_pnl, size_cohort_id, pnl_cohort_id, ' +
  'open_value, long_value, short_value, sum_upnl, exposure_ratio, perp_bias, closest_liq_coin, closest_liq_progress, count_open_positions, spot_hype, staked_hype';

export const POSITION_COLUMNS =
  'address, coin, dex, side, size, entry_price, value, unrealized_pnl, funding, liquidation_price, liquidation_progress, leverage_type, leverage, ' +
  'margin_used, open_time, close_time, created_at, updated_at';

const iso = (ms: number): string => new Date(ms).toISOString();
const nullable = (v: string | null): string => v ?? '\\N';

export function walletLine(w: WalletRow): string {
  return (
    `${w.address}\t${iso(w.earliestActivityMs)}\t${iso(w.stateTimeMs)}\t${w.perpEquity}\t${w.spotEquity}\t${w.stakedEquity}\t${w.totalEquity}\t` +
    `${w.perpPnl}\t${w.sizeCohortId}\t${w.pnlCohortId}\t${w.openValue}\t${w.longValue}\t${w.shortValue}\t${w.sumUpnl}\t${nullable(w.exposureRatio)}\t` +
    `${nullable(w.perpBias)}\t${nullable(w.closestLiqCoin)}\t${nullable(w.closestLiqProgress)}\t${w.countOpenPositions}\t${w.spotHype}\t${w.stakedHype}\n`
  );
}

export function positionLine(p: PositionRow): string {
  return (
    `${p.address}\t${p.coin}\t${p.dex}\t${p.side}\t${p.size}\t${p.entryPrice}\t${p.value}\t${p.unrealizedPnl}\t${p.funding}\t` +
    `${nullable(p.liquidationPrice)}\t${nullable(p.liquidationProgress)}\t${p.leverageType}\t${p.leverage}\t${p.marginUsed}\t${iso(p.openTimeMs)}\t` +
    `${p.closeTimeMs === null ? '\\N' : iso(p.closeTimeMs)}\t${iso(p.createdAtMs)}\t${iso(p.updatedAtMs)}\n`
  );
}

/** Lines in chunks of `wallets` wallets each (small: see fillCopyChunks). */
function* chunks(dataset: AnalyticsDataset, lines: (i: number) => string, wallets = 100): Generator<string> {
  for (let start = 0; start < dataset.settings.wallets; start += wallets) {
    const end = Math.min(dataset.settings.wallets, start + wallets);
    let chunk = '';
    for (let i = start; i < end; i++) chunk += lines(i);
    yield chunk;
  }
}

export const walletCopyChunks = (dataset: AnalyticsDataset): Generator<string> =>
  chunks(dataset, (i) => walletLine(dataset.wallet(i).wallet));

/** Each wallet's closed positions, then its open ones. */
export const positionCopyChunks = (dataset: AnalyticsDataset): Generator<string> =>
  chunks(dataset, (i) => {
    const { open, closed } = dataset.wallet(i);
    return closed.map(positionLine).join('') + open.map(positionLine).join('');
  });
