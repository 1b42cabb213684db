import { ClosedTradeBuilder, type ClosedTrade, ClosedTradesRepository, type ProjectedFill, ProjectionCheckpointRepository } from '#market';
import type { SqlRunner } from '#database';
import type { AnalyticsDataset } from './analytics-dataset.js';

/** Blocks per read of a closed-trades pass (about 140,000 fills of all coins at the default scale). */
const PROJECTION_BLOCKS = 200_000;
/** Passes of the closed trades, each over a share of the coins: a builder's open trades of all of them outgrow the heap. */
const COIN_GROUPS = 4;
/** The projector's checkpoint name for the node feed (`fills:<EXCHANGE_SOURCE>`). */
const PROJECTION = 'fills:node';

/**
 * The fill projector's closed-trade work over every loaded fill: the ClosedTradeBuilder fed in its order
 * (time, tid, address) and its insert, with its checkpoint at the end. A builder over all 10 million fills
 * holds the open trade of every (wallet, coin) and outgrows the heap, so the coins are taken in groups,
 * each in its own pass with a builder of its own: a trade is of one (wallet, coin), so the trades are the
 * same. The read is the projector's (ProjectionInputsRepository.fills) with the group's coins as one more
 * condition. The builder's open trades are not written to closed_trade_open_states (no route reads them).
 * The generated history has no funding payments.
 */
export async function projectClosedTrades(
  q: SqlRunner,
  dataset: AnalyticsDataset,
  lastBlock: number,
  progress: (m: string) => void,
): Promise<number> {
  const repository = new ClosedTradesRepository();
  const groups = Array.from({ length: COIN_GROUPS }, (_, g) => dataset.coins.filter((c) => c.index % COIN_GROUPS === g).map((c) => c.coin));
  let [fills, inserted] = [0, 0];
  let lastFillTime: number | null = null;
  for (const coins of groups) {
    const builder = new ClosedTradeBuilder();
    for (let after = -1; after < lastBlock; after += PROJECTION_BLOCKS) {
      const window = await groupFills(q, after, Math.min(lastBlock, after + PROJECTION_BLOCKS), coins);
      const closed: ClosedTrade[] = [];
      for (const fill of window) {
        try {
          closed.push(...builder.add(fill.address, fill));
        } catch (error) {
          // As the projector: a fill older than the last of its key is left out.
          if (!(error instanceof RangeError)) throw error;
        }
      }
      for (let i = 0; i < closed.length; i += 10_000) inserted += await repository.insert(q, closed.slice(i, i + 10_000));
      fills += window.length;
      if (window.length > 0) lastFillTime = Math.max(lastFillTime ?? 0, window[window.length - 1]!.time);
    }
    progress(`derived tables: ${fills} fills projected, ${inserted} closed trades`);
  }
  // The projector's checkpoint: the builder routes take the newest projected fill as their "now".
  const checkpoints = new ProjectionCheckpointRepository();
  await checkpoints.lock(q, PROJECTION);
  await checkpoints.save(q, PROJECTION, { fillsBlock: lastBlock, fundingBlock: null, lastFillTime });
  return inserted;
}

/** ProjectionInputsRepository.fills of blocks (after, upTo], of the given coins only. */
async function groupFills(q: SqlRunner, after: number, upTo: number, coins: string[]): Promise<ProjectedFill[]> {
  const rows: Array<Record<string, string>> = await q.query(
    `SELECT lower(address) AS address, coin, px::text AS px, sz::text AS sz, side, (extract(epoch FROM time) * 1000)::bigint AS time,
            start_position::text AS start_position, closed_pnl::text AS closed_pnl, fee::text AS fee, tid, hash, oid
     FROM fills WHERE block_number > $1 AND block_number <= $2 AND coin = ANY($3)
     ORDER BY time, tid, address`,
    [after, upTo, coins],
  );
  return rows.map((r) => ({
    address: r.address!,
    coin: r.coin!,
    px: r.px!,
    sz: r.sz!,
    side: r.side as 'A' | 'B',
    time: Number(r.time),
    startPosition: r.start_position!,
    closedPnl: r.closed_pnl!,
    fee: r.fee!,
    tid: Number(r.tid),
    hash: r.hash!,
    oid: Number(r.oid),
  }));
}
