import { keyPath, parseEach, parseRecord, WireError, type ParseResult, type ParseSource } from '../parse/parse-result.js';
import { expectAddress, expectArray, isAddress, WireObject } from '../parse/wire-reader.js';
import type { Fill, FillLiquidation, InfoFill, NodeFillEvent } from './fill.types.js';

function readLiquidation(object: WireObject | null): FillLiquidation | null {
  if (object === null) return null;
  return {
    liquidatedUser: object.address('liquidatedUser'),
    markPx: object.decimal('markPx'),
    method: object.nonEmptyString('method'),
  };
}

/**
 * Every field of a fill, checked in wire order so the first bad field is the one reported; a missing tid
 * is reported after them (by readFill), as the caller decides whether a fill needs one. The fill is built
 * once (tid last, as before) rather than copied through a rest and a spread: this runs per fill of the feed.
 */
function readFillFields(value: unknown, path: string): InfoFill {
  const o = new WireObject(value, path);
  const coin = o.nonEmptyString('coin');
  const px = o.decimal('px');
  const sz = o.decimal('sz');
  const side = o.side('side');
  const time = o.uint('time');
  const startPosition = o.decimal('startPosition');
  const dir = o.string('dir');
  const closedPnl = o.decimal('closedPnl');
  const hash = o.hash('hash');
  const oid = o.uint('oid');
  const crossed = o.boolean('crossed');
  const fee = o.decimal('fee');
  const tid = o.optionalUint('tid');
  const cloid = o.optionalString('cloid');
  const feeToken = o.optionalString('feeToken');
  const twapId = o.optionalUint('twapId');
  const builder = o.optionalAddress('builder');
  const builderFee = o.optionalDecimal('builderFee');
  const liquidation = readLiquidation(o.optionalObject('liquidation'));
  return {
    coin,
    px,
    sz,
    side,
    time,
    startPosition,
    dir,
    closedPnl,
    hash,
    oid,
    crossed,
    fee,
    cloid,
    feeToken,
    twapId,
    builder,
    builderFee,
    liquidation,
    tid,
  };
}

/** Reads a fill that must carry a trade id (hl-node, websocket): without it a fill cannot be stored once. */
export function readFill(value: unknown, path: string): Fill {
  const fill = readFillFields(value, path);
  if (fill.tid === null) throw new WireError(keyPath(path, 'tid'), 'missing');
  return fill as Fill;
}

export function readInfoFill(value: unknown, path: string): InfoFill {
  return readFillFields(value, path);
}

/** `[address, fill]` as hl-node writes it; paths name the parts `address` and `fill`. */
export function readNodeFillEvent(value: unknown, path: string, index: number): NodeFillEvent {
  const pair = expectArray(value, path);
  if (pair.length !== 2) throw new WireError(path, `expected an [address, fill] pair, got ${pair.length} elements`);
  const address = isAddress(pair[0]) ? pair[0] : expectAddress(pair[0], keyPath(path, 'address'));
  return { index, address, fill: readFill(pair[1], keyPath(path, 'fill')) };
}

export function parseFill(value: unknown, source: ParseSource): ParseResult<Fill> {
  return parseRecord(source, () => readFill(value, ''));
}

/** Info `userFills`: each fill is its own record, so one bad fill is reported and the rest kept. */
export function parseUserFills(value: unknown, source: ParseSource): ParseResult<InfoFill[]> {
  return parseEach(value, source, '', readInfoFill);
}
