import type { NodeStream } from '../node/node-block.types.js';

export interface SimulatorSettings {
  seed: number;
  /** Exchange time (epoch ms) of the simulator's first instant; the simulator never reads a clock. */
  startTimeMs: number;
  /** Trading wallets; a few market-maker wallets are added on top. */
  wallets: number;
  /** How many markets of the catalogue (1 to 12); three or more include HIP-3 markets. */
  markets: number;
  /** Mean user actions (trades, orders, TWAPs, ledger moves) per second of exchange time. */
  eventsPerSecond: number;
  /** Standard deviation of price moves per hour (0.02 = 2 %); defaults to 0.02. */
  hourlyVolatility?: number;
  /** Market-maker wallets; defaults to 3. */
  makers?: number;
  /**
   * Open orders the book holds (makers' quote ladders and users' limit orders; trigger orders come on
   * top); defaults to DEFAULT_BOOK_ORDERS.
   */
  bookOrders?: number;
}

export const DEFAULT_BOOK_ORDERS = 5_000;

/** One hl-node `--batch-by-block` line, ready to be written to `<stream>/hourly/YYYYMMDD/H`. */
export interface SimLine {
  stream: NodeStream;
  /** The JSON block, without the trailing newline. */
  line: string;
  /** The block's time as hl-node writes it. */
  blockTime: string;
  blockTimeMs: number;
  blockNumber: number;
}

/**
 * The simulator's exchange time, read by its writers. An object rather than a closure, so the simulator's
 * state is plain data that can be saved and restored (simulator-saved-state.ts).
 */
export interface ExchangeClock {
  readonly nowMs: number;
}
