/**
 * A trade's net result over `closed_trades` columns: realized PnL is gross, so fees are taken off and
 * funding added. The summary route's sums and the listed trades' `netPnlUsd` both read it.
 */
export const NET_RESULT_SQL = '(realized_pnl_usd - fee_usd + funding_usd)';

/**
 * The one rule of a win, in exact `numeric`: a net result above 0 wins, below 0 loses, exactly 0 is even.
 * The listed trades' `outcome` and the summary's win and loss counts are both this expression, so a
 * summary's winCount is the number of its own listed trades marked `win` (the pure summarizer's
 * `tradeOutcome` is the same rule in big.js, checked against this one on a simulated run).
 */
export const OUTCOME_SQL = `CASE WHEN ${NET_RESULT_SQL} > 0 THEN 'win' WHEN ${NET_RESULT_SQL} < 0 THEN 'loss' ELSE 'even' END`;
