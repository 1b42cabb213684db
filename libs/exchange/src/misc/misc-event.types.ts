import type { LedgerDelta } from '../ledger/ledger.types.js';

/** One user's funding payment of an hl-node `Funding` event (wire snake_case in camelCase here). */
export interface NodeFundingDelta {
  user: string;
  coin: string;
  /** Wire `funding_amount`. */
  fundingAmount: string;
  szi: string;
  /** Wire `funding_rate`. */
  fundingRate: string;
}

/** The `inner` of a misc event, tagged by `kind`; wire key `LedgerUpdate` is kind `ledgerUpdate`, and so on. */
export type MiscEventBody =
  | { kind: 'ledgerUpdate'; users: string[]; delta: LedgerDelta }
  | { kind: 'funding'; deltas: NodeFundingDelta[] }
  | { kind: 'delegation'; user: string; validator: string; amount: string; isUndelegate: boolean }
  /** HYPE moved from spot into staking. */
  | { kind: 'cDeposit'; user: string; amount: string }
  /** HYPE moved from staking back to spot (finalised after the unstaking queue). */
  | { kind: 'cWithdrawal'; user: string; amount: string; isFinalized: boolean }
  /** An event kind this code does not know yet, kept so new exchange events never stop the feed. */
  | { kind: 'unknown'; wireKind: string; raw: unknown };

export type MiscEventKind = MiscEventBody['kind'];

/** A `misc_events_by_block` event. */
export type NodeMiscEvent = {
  index: number;
  time: string;
  timeMs: number;
  /** All zeros for events no transaction caused (funding). */
  hash: string | null;
} & MiscEventBody;
