import type { Side } from '../parse/wire-reader.js';

/**
 * `error` stands for hl-node's `{"error": "..."}` status object (the message goes to `description`);
 * `unknown` for a status this code does not know yet, kept rather than dropped (its text or JSON in
 * `description`).
 */
export type TwapStatus = 'activated' | 'finished' | 'terminated' | 'error' | 'unknown';

export const KNOWN_TWAP_STATUSES: readonly TwapStatus[] = ['activated', 'finished', 'terminated'];

export interface TwapState {
  coin: string;
  user: string;
  side: Side;
  sz: string;
  executedSz: string;
  executedNtl: string;
  minutes: number;
  reduceOnly: boolean;
  randomize: boolean;
  /** Epoch ms the TWAP was placed. */
  timestamp: number;
}

/** A `node_twap_statuses_by_block` event (wire `twap_id` is `twapId` here). */
export interface NodeTwapStatusEvent {
  index: number;
  time: string;
  timeMs: number;
  twapId: number;
  state: TwapState;
  status: TwapStatus;
  /** The error message for `error`, the raw status for `unknown`, else null. */
  description: string | null;
}
