import { Injectable } from '@nestjs/common';
import type { OpenTradeState } from './closed-trade.types.js';
import { type SqlRunner } from '#database';

/** A position key of the closed-trade builder: lower-cased address and coin. */
export interface TradeKey {
  address: string;
  coin: string;
}

/** The ClosedTradeBuilder's open trades, one row per (address, coin) with a trade open. */
@Injectable()
export class OpenTradeStatesRepository {
  async load(q: SqlRunner, keys: TradeKey[]): Promise<OpenTradeState[]> {
    if (keys.length === 0) return [];
    const rows: Array<{ state: OpenTradeState }> = await q.query(
      `SELECT s.state FROM closed_trade_open_states s
       JOIN unnest($1::text[], $2::text[]) AS k(address, coin) ON s.address = k.address AND s.coin = k.coin`,
      [keys.map((k) => k.address), keys.map((k) => k.coin)],
    );
    return rows.map((r) => r.state);
  }

  /** Makes `states` the open trades of `keys`: a key with no state is flat. */
  async replace(q: SqlRunner, keys: TradeKey[], states: OpenTradeState[]): Promise<void> {
    if (keys.length > 0) {
      await q.query(
        `DELETE FROM closed_trade_open_states s USING unnest($1::text[], $2::text[]) AS k(address, coin)
         WHERE s.address = k.address AND s.coin = k.coin`,
        [keys.map((k) => k.address), keys.map((k) => k.coin)],
      );
    }
    if (states.length === 0) return;
    // One JSON document rather than a text[] of documents: escaping every quote of every state into an
    // array literal made this insert the slowest step of a run.
    await q.query(
      `INSERT INTO closed_trade_open_states (address, coin, state)
       SELECT s->>'address', s->>'coin', s FROM jsonb_array_elements($1::jsonb) AS s`,
      [JSON.stringify(states)],
    );
  }
}
