import type { Side } from '../parse/wire-reader.js';

/** Present on both sides of a liquidation trade; `liquidatedUser` names the victim. */
export interface FillLiquidation {
  liquidatedUser: string;
  markPx: string;
  /** "market" or "backstop" as seen; kept open. */
  method: string;
}

/**
 * One side of a trade as hl-node and the websocket send it. Decimal fields are exact strings as received.
 * Optional wire fields are null when absent so every fill has the same shape.
 */
export interface Fill {
  coin: string;
  px: string;
  sz: string;
  side: Side;
  /** Epoch ms. */
  time: number;
  /** Signed position before this fill: the truth, not a running sum (consecutive fills do not always chain). */
  startPosition: string;
  /** Open string: "Open Long", "Close Short", "Long > Short", "Buy", ... */
  dir: string;
  closedPnl: string;
  /** All zeros for TWAP slice fills (both sides). */
  hash: string;
  oid: number;
  crossed: boolean;
  /** Negative for a maker rebate; includes builderFee. */
  fee: string;
  /** Shared by the two fills of one trade; with the address it identifies a fill. */
  tid: number;
  cloid: string | null;
  feeToken: string | null;
  /** Set on the TWAP owner's side only; the counterparty of a slice has null. */
  twapId: number | null;
  builder: string | null;
  builderFee: string | null;
  liquidation: FillLiquidation | null;
}

/** A fill from the info API's `userFills`: responses recorded before trade ids existed have no `tid`. */
export type InfoFill = Omit<Fill, 'tid'> & { tid: number | null };

/** A `node_fills_by_block` event: the wire pair `[address, fill]`. `index` is its place in the block line. */
export interface NodeFillEvent {
  index: number;
  address: string;
  fill: Fill;
}
