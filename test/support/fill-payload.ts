import type { WireFill } from '#testing';

/**
 * A fill as a `position_activity` delivery and a `fills` stream frame carry it, written out field by field
 * from the wire fill the test wrote (a block whose local time is its block time).
 */
export function fillPayload(
  wallet: string,
  f: WireFill & { liquidation?: object },
  block: { blockNumber: number; blockTime: string },
): Record<string, unknown> {
  return {
    id: `${f.tid}:${wallet}`,
    coin: f.coin,
    px: f.px,
    sz: f.sz,
    side: f.side,
    time: f.time,
    oid: f.oid,
    tid: f.tid,
    hash: f.hash,
    fullCoinName: f.coin,
    fillType: 'perp',
    dir: f.dir,
    startPosition: f.startPosition,
    closedPnl: f.closedPnl,
    fee: f.fee,
    feeToken: 'USDC',
    builder: null,
    builderFee: null,
    crossed: f.crossed,
    cloid: null,
    blockNumber: block.blockNumber,
    blockTime: block.blockTime,
    localTime: block.blockTime,
    ...(f.liquidation ? { liquidation: f.liquidation } : {}),
  };
}
