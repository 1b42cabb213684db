import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * The tables the ingestion rewrites in place: the open-order book and its current intervals (every
 * order status), the closed-trade builder's open states (every projection window), and the state
 * writer's wallets, open positions, PnL periods and rankings (every state update). Each rewrite leaves a
 * dead row version behind.
 */
export const CHURNED_TABLES = [
  'open_orders',
  'open_order_intervals_current',
  'closed_trade_open_states',
  'positions',
  'wallets',
  'wallet_pnl_periods',
  'wallet_rankings',
] as const;

/**
 * Vacuumed without analysis: analysing the whole positions history (tens of thousands of rows) cost more
 * than all the rest together; the state writer analyses it itself after a large change, and VACUUM keeps
 * its row count current.
 */
const NOT_ANALYZED: (typeof CHURNED_TABLES)[number] = 'positions';

/** About ten seconds of a catch-up on two cores, twelve hours of exchange time. */
export const CHUNKS_PER_CATCH_UP_VACUUM = 48;

/**
 * VACUUM (ANALYZE) of the churned tables while catching up. A backfill replays days of exchange time in
 * minutes: a 5,000-row open-order book or 2,000 open positions gather hundreds of thousands of dead rows
 * in that time, and every statement that reads them walks those rows. Autovacuum looks at a table about
 * once a minute and at a threshold meant for real time, so at a thousand times real time the tables would
 * grow many times over between its visits (in a 7-day backfill, a 5,000-row book reached 60 MB). Live,
 * the ingestion does not call this: autovacuum keeps up with real time.
 */
@Injectable()
export class CatchUpVacuum {
  private sinceLast = 0;
  private running: Promise<void> | null = null;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Counts a chunk stored while catching up. Every CHUNKS_PER_CATCH_UP_VACUUM chunks, unless the last one
   * is still running, starts a vacuum on a pool connection of its own, beside the ingestion (VACUUM blocks
   * no reads or writes). A failure goes to `onError`; nothing depends on it, and the next one tries again.
   */
  chunkStored(onError: (error: Error) => void): void {
    if (++this.sinceLast < CHUNKS_PER_CATCH_UP_VACUUM || this.running !== null) return;
    this.sinceLast = 0;
    this.running = this.vacuum()
      .then(() => undefined, onError)
      .finally(() => {
        this.running = null;
      });
  }

  private async vacuum(): Promise<void> {
    await this.dataSource.query(`VACUUM (ANALYZE) ${CHURNED_TABLES.filter((t) => t !== NOT_ANALYZED).join(', ')}`);
    await this.dataSource.query(`VACUUM ${NOT_ANALYZED}`);
  }

  /** Waits for a vacuum under way. */
  async settle(): Promise<void> {
    await this.running;
  }
}
