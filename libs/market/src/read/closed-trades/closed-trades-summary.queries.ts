import { Injectable } from '@nestjs/common';
import { isoTime, type SqlRunner, ReadsTables } from '#database';
import { NET_RESULT_SQL, OUTCOME_SQL } from './closed-trade-outcome.sql.js';

/** Which of a wallet's trades a summary covers. */
export type SummaryScope = { closedSince: number | null } | { latest: number };

/**
 * The exact sums and counts of one group of trades (the wallet, or one coin of it): everything the
 * summary record is made of, in `numeric` (decimal strings) and integers. Null sums mean no such trade.
 */
export interface SummaryAggregate {
  /** Null for the wallet-level row. */
  coin: string | null;
  tradeCount: number;
  winCount: number;
  lossCount: number;
  longCount: number;
  longWinCount: number;
  shortCount: number;
  shortWinCount: number;
  realizedPnlUsd: string;
  grossProfitUsd: string;
  grossLossUsd: string;
  feesUsd: string;
  fundingUsd: string;
  volumeUsd: string;
  entryUsd: string;
  durationSumMs: string;
  /** The lower and upper middle durations (the same one for an odd count); null without trades. */
  lowerMiddleMs: string | null;
  upperMiddleMs: string | null;
  largestWinUsd: string | null;
  largestLossUsd: string | null;
}

interface AggregateRow {
  is_total: boolean;
  coin: string | null;
  trade_count: number;
  win_count: number;
  loss_count: number;
  long_count: number;
  long_win_count: number;
  short_count: number;
  short_win_count: number;
  realized_pnl_usd: string;
  gross_profit_usd: string;
  gross_loss_usd: string;
  fees_usd: string;
  funding_usd: string;
  volume_usd: string;
  entry_usd: string;
  duration_sum: string;
  lower_middle: string | null;
  upper_middle: string | null;
  largest_win: string | null;
  largest_loss: string | null;
}

// `outcome` is the listed trades' own: a win here is a trade the list marks `win`.
const TRADES = `SELECT coin, side, duration, total_usd, exit_usd, realized_pnl_usd, fee_usd, funding_usd,
                       ${NET_RESULT_SQL} AS net, ${OUTCOME_SQL} AS outcome
                FROM closed_trades`;

const money = (sql: string, alias: string) => `trim_scale(coalesce(${sql}, 0))::text AS ${alias}`;

/** What the closed-trades summary route reads: one pass of SQL aggregates over the wallet's trades in scope. */
@Injectable()
@ReadsTables('closed_trades')
export class ClosedTradesSummaryQueries {
  /**
   * The wallet-level row and one row per coin (by coin), computed in Postgres so no trade is loaded:
   * a wallet may have 100,000 of them. `last50`-style scopes read only the newest `latest` trades by
   * (close_time, hash) descending, through the (address, close_time, hash) index.
   */
  async aggregate(q: SqlRunner, address: string, scope: SummaryScope): Promise<{ total: SummaryAggregate; byCoin: SummaryAggregate[] }> {
    const params: unknown[] = [address.toLowerCase()];
    let scoped: string;
    if ('latest' in scope) {
      params.push(scope.latest);
      scoped = `${TRADES} WHERE address = $1 ORDER BY close_time DESC, hash DESC LIMIT $2`;
    } else if (scope.closedSince !== null) {
      params.push(isoTime(scope.closedSince));
      scoped = `${TRADES} WHERE address = $1 AND close_time >= $2::timestamptz`;
    } else {
      scoped = `${TRADES} WHERE address = $1`;
    }
    // The median's two middle values: percentile_disc(0.5) is the value at position ceil(n/2) of the
    // ascending order (the middle, or the lower middle of an even count); of the descending order it is
    // the upper middle. Both exact integers, unlike percentile_cont's double.
    const rows: AggregateRow[] = await q.query(
      `WITH t AS (${scoped})
       SELECT GROUPING(coin) = 1 AS is_total, coin,
              count(*)::int AS trade_count,
              count(*) FILTER (WHERE outcome = 'win')::int AS win_count,
              count(*) FILTER (WHERE outcome = 'loss')::int AS loss_count,
              count(*) FILTER (WHERE side = 'long')::int AS long_count,
              count(*) FILTER (WHERE side = 'long' AND outcome = 'win')::int AS long_win_count,
              count(*) FILTER (WHERE side = 'short')::int AS short_count,
              count(*) FILTER (WHERE side = 'short' AND outcome = 'win')::int AS short_win_count,
              ${money('sum(realized_pnl_usd)', 'realized_pnl_usd')},
              ${money("sum(net) FILTER (WHERE outcome = 'win')", 'gross_profit_usd')},
              ${money("sum(net) FILTER (WHERE outcome = 'loss')", 'gross_loss_usd')},
              ${money('sum(fee_usd)', 'fees_usd')},
              ${money('sum(funding_usd)', 'funding_usd')},
              ${money('sum(total_usd + exit_usd)', 'volume_usd')},
              ${money('sum(total_usd)', 'entry_usd')},
              coalesce(sum(duration), 0)::text AS duration_sum,
              (percentile_disc(0.5) WITHIN GROUP (ORDER BY duration))::text AS lower_middle,
              (percentile_disc(0.5) WITHIN GROUP (ORDER BY duration DESC))::text AS upper_middle,
              trim_scale(max(net) FILTER (WHERE outcome = 'win'))::text AS largest_win,
              trim_scale(min(net) FILTER (WHERE outcome = 'loss'))::text AS largest_loss
       FROM t
       GROUP BY GROUPING SETS ((), (coin))
       ORDER BY is_total DESC, coin COLLATE "C"`,
      params,
    );
    // GROUPING SETS gives the () row even without trades: the wallet-level row always exists.
    const [total, ...byCoin] = rows.map(toAggregate);
    return { total: total!, byCoin };
  }
}

function toAggregate(r: AggregateRow): SummaryAggregate {
  return {
    coin: r.is_total ? null : r.coin,
    tradeCount: r.trade_count,
    winCount: r.win_count,
    lossCount: r.loss_count,
    longCount: r.long_count,
    longWinCount: r.long_win_count,
    shortCount: r.short_count,
    shortWinCount: r.short_win_count,
    realizedPnlUsd: r.realized_pnl_usd,
    grossProfitUsd: r.gross_profit_usd,
    grossLossUsd: r.gross_loss_usd,
    feesUsd: r.fees_usd,
    fundingUsd: r.funding_usd,
    volumeUsd: r.volume_usd,
    entryUsd: r.entry_usd,
    durationSumMs: r.duration_sum,
    lowerMiddleMs: r.lower_middle,
    upperMiddleMs: r.upper_middle,
    largestWinUsd: r.largest_win,
    largestLossUsd: r.largest_loss,
  };
}
