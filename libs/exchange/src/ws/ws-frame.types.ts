import type { Fill } from '../fills/fill.types.js';
import type { L2Book } from '../info/info.types.js';
import type { Side } from '../parse/wire-reader.js';

export interface PerpAssetCtx {
  funding: string;
  openInterest: string;
  prevDayPx: string;
  dayNtlVlm: string;
  premium: string | null;
  oraclePx: string;
  markPx: string;
  midPx: string | null;
  impactPxs: string[] | null;
  dayBaseVlm: string | null;
}

/** A public trade: one per match, with both parties in `users` (buyer first). */
export interface WsTrade {
  coin: string;
  side: Side;
  px: string;
  sz: string;
  time: number;
  hash: string;
  tid: number;
  users: [buyer: string, seller: string];
}

export interface WsUserFunding {
  time: number;
  coin: string;
  usdc: string;
  szi: string;
  fundingRate: string;
  nSamples: number | null;
}

/** The `liquidation` user event (wire snake_case in camelCase here). */
export interface WsLiquidation {
  lid: number;
  liquidator: string;
  liquidatedUser: string;
  liquidatedNtlPos: string;
  liquidatedAccountValue: string;
}

/** The `userEvents` channel: each frame usually carries one of these; absent parts are null. */
export interface WsUserEvents {
  fills: Fill[] | null;
  funding: WsUserFunding | null;
  liquidation: WsLiquidation | null;
  nonUserCancel: { coin: string; oid: number }[] | null;
  /** Keys this code does not know yet, kept as received. */
  other: Record<string, unknown> | null;
}

/** A candle, with the wire's one-letter names (t open time, T close time, s coin, i interval, n trade count). */
export interface Candle {
  t: number;
  T: number;
  s: string;
  i: string;
  o: string;
  c: string;
  h: string;
  l: string;
  v: string;
  n: number;
}

export type WsFrame =
  | { channel: 'activeAssetCtx'; data: { coin: string; ctx: PerpAssetCtx } }
  | { channel: 'l2Book'; data: L2Book }
  | { channel: 'trades'; data: WsTrade[] }
  | { channel: 'userEvents'; data: WsUserEvents }
  | { channel: 'candle'; data: Candle }
  /** Any other channel (subscriptionResponse, pong, channels not used here), kept as received. */
  | { channel: 'unknown'; wireChannel: string; data: unknown };
