import { createHash } from 'node:crypto';

/** The fields of a fill that identify it: (tid, address) on hl-node; old info fills have no tid. */
export interface FillIdentityFields {
  tid: number | null;
  hash: string;
  time: number;
  oid: number;
  startPosition: string;
  sz: string;
  px: string;
}

/**
 * How the first fill started the trade: 'opened' from flat (or the opening part of a flip), 'carried' when
 * the position was already open before it. One fill can start one trade of each kind (a flip seen first
 * after a gap), never two of the same, so the pair is unique.
 */
export type TradeStart = 'opened' | 'carried';

export function tradeIdentity(address: string, coin: string, fill: FillIdentityFields, start: TradeStart): string {
  // Without a tid, the transaction hash is shared by every fill of the order, so more fields are needed.
  const fillKey =
    fill.tid !== null ? `tid:${fill.tid}` : `${fill.hash}:${fill.time}:${fill.oid}:${fill.startPosition}:${fill.sz}:${fill.px}`;
  return `${address}|${coin}|${fillKey}|${start}`;
}

export function tradeHash(identity: string): string {
  return createHash('sha256').update(identity).digest('hex');
}

/** Sorts by open time as text within a wallet; the hash prefix makes it unique. */
export function tradeId(openTime: number, hash: string): string {
  return `${openTime}-${hash.slice(0, 16)}`;
}
