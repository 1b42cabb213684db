import type { Fill, FillLiquidation } from '../fills/fill.types.js';
import type { LedgerDelta } from '../ledger/ledger.types.js';
import type { Order } from '../orders/order.types.js';
import type { TwapState, TwapStatus } from '../twap/twap-status.types.js';

/**
 * The events the simulator writes, as they are on the wire. Where the parser's type is the wire shape
 * itself (Order, Fill, TwapState, LedgerDelta) it is used; where the parser renames keys or tags a union
 * (misc events, TWAP statuses, builders), the wire shape is spelled out here and names the parsed type.
 * A type does not fix the order of keys, which is part of the bytes: wire-json.ts writes orders and fills
 * key by key, and the rest is JSON.stringify of object literals, in the order their keys are written.
 */

/** An order inside a `node_order_statuses_by_block` event: the parser's Order, with what the simulator places. */
export interface WireOrder extends Omit<Order, 'children' | 'orderType' | 'tif'> {
  children: WireOrder[];
  orderType: 'Limit' | 'Stop Limit' | 'Stop Market' | 'Take Profit Limit' | 'Take Profit Market';
  tif: 'Alo' | 'Ioc' | 'Gtc' | null;
}

/** An order's builder as hl-node writes it (parsed as OrderBuilder). */
export interface WireBuilder {
  b: string;
  /** Builder fee in tenths of a basis point. */
  f: number;
}

/** The order statuses the simulator writes, of the parser's open set (OrderStatus). */
export type WireOrderStatus = 'open' | 'filled' | 'canceled' | 'triggered' | 'reduceOnlyCanceled' | 'perpMarginRejected';

/** A fill as the simulator writes it: the parser's Fill, with the keys it leaves out absent rather than null. */
export type WireFill = Omit<Fill, 'cloid' | 'feeToken' | 'builder' | 'builderFee' | 'liquidation'> & {
  cloid?: string;
  liquidation?: FillLiquidation;
  feeToken: string;
  builder?: string;
  builderFee?: string;
};

/** hl-node's TWAP status: a name, or `{"error": "..."}` (parsed as status `error` with a description). */
export type WireTwapStatus = Exclude<TwapStatus, 'error' | 'unknown'> | { error: string };

/** A `node_twap_statuses_by_block` event (parsed as NodeTwapStatusEvent). */
export interface WireTwapStatusEvent {
  time: string;
  twap_id: number;
  state: TwapState;
  status: WireTwapStatus;
}

/** The ledger deltas the simulator writes, in the parser's own type. */
export type WireLedgerDelta = Extract<LedgerDelta, { type: 'deposit' | 'withdraw' | 'send' | 'liquidation' }>;

/** One user's payment of a `Funding` misc event (parsed as NodeFundingDelta). */
export interface WireFundingDelta {
  user: string;
  coin: string;
  funding_amount: string;
  szi: string;
  funding_rate: string;
}

/** The `inner` of a misc event: one key naming its kind (parsed as MiscEventBody). */
export type WireMiscInner =
  | { LedgerUpdate: { users: string[]; delta: WireLedgerDelta } }
  | { Funding: { deltas: WireFundingDelta[] } }
  | { Delegation: { user: string; validator: string; amount: string; is_undelegate: boolean } }
  | { CDeposit: { user: string; amount: string } }
  | { CWithdrawal: { user: string; amount: string; is_finalized: boolean } };

/** A `misc_events_by_block` event (parsed as NodeMiscEvent). */
export interface WireMiscEvent {
  time: string;
  hash: string;
  inner: WireMiscInner;
}
