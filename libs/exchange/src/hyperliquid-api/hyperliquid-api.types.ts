import type { Fill } from '../fills/fill.types.js';
import type { LedgerUpdate } from '../ledger/ledger.types.js';
import type { NodeBlock, NodeStream } from '../node/node-block.types.js';
import type { TwapState, TwapStatus } from '../twap/twap-status.types.js';

/**
 * The streams the public API feeds for a wallet: fills, funding and ledger updates (misc), TWAP statuses.
 * Order statuses have no per-user history feed there, so that stream is absent.
 */
export const API_STREAMS = [
  'node_fills_by_block',
  'misc_events_by_block',
  'node_twap_statuses_by_block',
] as const satisfies readonly NodeStream[];

export type ApiStream = (typeof API_STREAMS)[number];

/** Epoch ms of the latest event taken per tracked address (lower case). */
export type AddressCursors = Record<string, number>;

/**
 * A stream's checkpoint for this feed: no exchange height exists here (`lastBlock` stays null), only how
 * far each address's events have been taken, which is where backfill resumes after a restart.
 */
export interface ApiStreamPosition {
  lastBlock: null;
  cursors: AddressCursors;
}

export interface ApiFeedBlock {
  stream: ApiStream;
  block: NodeBlock;
  position: ApiStreamPosition;
}

/** A funding payment: the websocket sends it without a hash, the info API with one. */
export interface ApiFunding {
  time: number;
  coin: string;
  usdc: string;
  szi: string;
  fundingRate: string;
  nSamples: number | null;
  hash: string | null;
}

/** A TWAP status change as `userTwapHistory` sends it (wire time in seconds, here in ms). */
export interface ApiTwapStatus {
  timeMs: number;
  twapId: number;
  state: TwapState;
  status: TwapStatus;
  description: string | null;
}

/** What one message or one info page says about one wallet. */
export interface UserActivity {
  fills: Fill[];
  fundings: ApiFunding[];
  ledger: LedgerUpdate[];
  twaps: ApiTwapStatus[];
}

export const emptyActivity = (): UserActivity => ({ fills: [], fundings: [], ledger: [], twaps: [] });

/** Where one tracked address's connection stands; `live` means backfilled and following the websocket. */
export type AddressState = 'connecting' | 'backfilling' | 'live' | 'reconnecting' | 'stopped';

export interface AddressStateChange {
  address: string;
  state: AddressState;
  /** Failed connection attempts in a row, for `reconnecting`. */
  attempt?: number;
  delayMs?: number;
  reason?: string;
}
