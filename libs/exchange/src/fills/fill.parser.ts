import { keyPath, parseEach, parseRecord, WireError, type ParseResult, type ParseSource } from '../parse/parse-result.js';
import { expectAddress, expectArray, WireObject } from '../parse/wire-reader.js';
import type { Fill, FillLiquidation, InfoFill, NodeFillEvent } from './fill.types.js';

function readLiquidation(object: WireObject | null): FillLiquidation | null {
  if (object === null) return null;
  return {
    liquidatedUser: object.address('liquidatedUser'),
    markPx: object.decimal('markPx'),
    method: object.nonEmptyString('method'),
  };
}

function readFillFields(value: unknown, path: string): Omit<Fill, 'tid'> & { tidOrNull: number | null } {
  const o = new WireObject(value, path);
  return {
    coin: o.nonEmptyString('coin'),
    px: o.decimal('px'),
    sz: o.decimal('sz'),
    side: o.side('side'),
    time: o.uint('time'),
    startPosition: o.decimal('startPosition'),
    dir: o.string('dir'),
    closedPnl: o.decimal('closedPnl'),
    hash: o.hash('hash'),
    oid: o.uint('oid'),
    crossed: o.boolean('crossed'),
    fee: o.decimal('fee'),
    tidOrNull: o.optionalUint('tid'),
    cloid: o.optionalString('cloid'),
    feeToken: o.optionalString('feeToken'),
    twapId: o.optionalUint('twapId'),
    builder: o.optionalAddress('builder'),
    builderFee: o.optionalDecimal('builderFee'),
    liquidation: readLiquidation(o.optionalObject('liquidation')),
  };
}

/** Reads a fill that must carry a trade id (hl-node, websocket): without it a fill cannot be stored once. */
export function readFill(value: unknown, path: string): Fill {
  const { tidOrNull, ...rest } = readFillFields(value, path);
  if (tidOrNull === null) throw new WireError(keyPath(path, 'tid'), 'missing');
  return { ...rest, tid: tidOrNull };
}

export function readInfoFill(value: unknown, path: string): InfoFill {
  const { tidOrNull, ...rest } = readFillFields(value, path);
  return { ...rest, tid: tidOrNull };
}

/** `[address, fill]` as hl-node writes it; paths name the parts `address` and `fill`. */
export function readNodeFillEvent(value: unknown, path: string, index: number): NodeFillEvent {
  const pair = expectArray(value, path);
  if (pair.length !== 2) throw new WireError(path, `expected an [address, fill] pair, got ${pair.length} elements`);
  return { index, address: expectAddress(pair[0], keyPath(path, 'address')), fill: readFill(pair[1], keyPath(path, 'fill')) };
}

export function parseFill(value: unknown, source: ParseSource): ParseResult<Fill> {
  return parseRecord(source, () => readFill(value, ''));
}

/** Info `userFills`: each fill is its own record, so one bad fill is reported and the rest kept. */
export function parseUserFills(value: unknown, source: ParseSource): ParseResult<InfoFill[]> {
  return parseEach(value, source, '', readInfoFill);
}
