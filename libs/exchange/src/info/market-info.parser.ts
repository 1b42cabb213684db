import { indexPath, parseRecord, WireError, type ParseResult, type ParseSource } from '../parse/parse-result.js';
import { expectArray, WireObject } from '../parse/wire-reader.js';
import type { AllMids, BookLevel, L2Book, PerpAssetMeta, PerpMeta } from './info.types.js';

function readAssetMeta(value: unknown, path: string): PerpAssetMeta {
  const o = new WireObject(value, path);
  return {
    name: o.nonEmptyString('name'),
    szDecimals: o.uint('szDecimals'),
    maxLeverage: o.uint('maxLeverage'),
    onlyIsolated: o.optionalBoolean('onlyIsolated') ?? false,
    isDelisted: o.optionalBoolean('isDelisted') ?? false,
  };
}

/** Info `meta`: all or nothing, because a skipped market would shift every later asset id. */
export function parseMeta(value: unknown, source: ParseSource): ParseResult<PerpMeta> {
  return parseRecord(source, () => ({ universe: new WireObject(value, '').array('universe', readAssetMeta) }));
}

/** Info `allMids`. */
export function parseAllMids(value: unknown, source: ParseSource): ParseResult<AllMids> {
  return parseRecord(source, () => {
    const o = new WireObject(value, '');
    const mids: AllMids = {};
    for (const coin of Object.keys(o.raw)) mids[coin] = o.decimal(coin);
    return mids;
  });
}

function readLevel(value: unknown, path: string): BookLevel {
  const o = new WireObject(value, path);
  return { px: o.decimal('px'), sz: o.decimal('sz'), n: o.uint('n') };
}

export function readL2Book(value: unknown, path: string): L2Book {
  const o = new WireObject(value, path);
  const sides = o.array('levels', (side, sidePath) =>
    expectArray(side, sidePath).map((level, index) => readLevel(level, indexPath(sidePath, index))),
  );
  if (sides.length !== 2) throw new WireError(o.at('levels'), `expected [bids, asks], got ${sides.length} sides`);
  return { coin: o.nonEmptyString('coin'), time: o.uint('time'), levels: [sides[0]!, sides[1]!] };
}

/** Info `l2Book`: all or nothing, a book with a level missing would misquote depth. */
export function parseL2Book(value: unknown, source: ParseSource): ParseResult<L2Book> {
  return parseRecord(source, () => readL2Book(value, ''));
}
