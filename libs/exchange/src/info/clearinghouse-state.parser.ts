import { parseRecord, WireError, type ParseResult, type ParseSource } from '../parse/parse-result.js';
import { expectDecimal, WireObject } from '../parse/wire-reader.js';
import type { AssetPosition, ClearinghouseState, Leverage, MarginSummary, SpotBalance, SpotClearinghouseState } from './info.types.js';

function readMarginSummary(o: WireObject): MarginSummary {
  return {
    accountValue: o.decimal('accountValue'),
    totalMarginUsed: o.decimal('totalMarginUsed'),
    totalNtlPos: o.decimal('totalNtlPos'),
    totalRawUsd: o.decimal('totalRawUsd'),
  };
}

function readLeverage(o: WireObject): Leverage {
  const type = o.string('type');
  if (type !== 'cross' && type !== 'isolated')
    throw new WireError(o.at('type'), `expected "cross" or "isolated", got ${JSON.stringify(type)}`);
  return { type, value: o.uint('value'), rawUsd: o.optionalDecimal('rawUsd') };
}

function readAssetPosition(value: unknown, path: string): AssetPosition {
  const o = new WireObject(value, path);
  const p = o.object('position');
  const cumFunding = p.optionalObject('cumFunding');
  return {
    type: o.nonEmptyString('type'),
    position: {
      coin: p.nonEmptyString('coin'),
      szi: p.decimal('szi'),
      entryPx: p.decimal('entryPx'),
      leverage: readLeverage(p.object('leverage')),
      liquidationPx: p.nullableDecimal('liquidationPx'),
      marginUsed: p.decimal('marginUsed'),
      positionValue: p.decimal('positionValue'),
      returnOnEquity: p.decimal('returnOnEquity'),
      unrealizedPnl: p.decimal('unrealizedPnl'),
      maxTradeSzs: p.optionalArray('maxTradeSzs', expectDecimal),
      maxLeverage: p.optionalUint('maxLeverage'),
      cumFunding:
        cumFunding === null
          ? null
          : {
              allTime: cumFunding.decimal('allTime'),
              sinceOpen: cumFunding.decimal('sinceOpen'),
              sinceChange: cumFunding.decimal('sinceChange'),
            },
    },
  };
}

/** Info `clearinghouseState`: all or nothing, since a state with a position left out would misstate equity. */
export function parseClearinghouseState(value: unknown, source: ParseSource): ParseResult<ClearinghouseState> {
  return parseRecord(source, () => {
    const o = new WireObject(value, '');
    return {
      assetPositions: o.array('assetPositions', readAssetPosition),
      crossMarginSummary: readMarginSummary(o.object('crossMarginSummary')),
      marginSummary: readMarginSummary(o.object('marginSummary')),
      withdrawable: o.decimal('withdrawable'),
      crossMaintenanceMarginUsed: o.optionalDecimal('crossMaintenanceMarginUsed'),
      time: o.optionalUint('time'),
    };
  });
}

function readSpotBalance(value: unknown, path: string): SpotBalance {
  const o = new WireObject(value, path);
  return {
    coin: o.nonEmptyString('coin'),
    token: o.uint('token'),
    hold: o.decimal('hold'),
    total: o.decimal('total'),
    entryNtl: o.decimal('entryNtl'),
  };
}

/** Info `spotClearinghouseState`: all or nothing, like the perp state. */
export function parseSpotClearinghouseState(value: unknown, source: ParseSource): ParseResult<SpotClearinghouseState> {
  return parseRecord(source, () => ({ balances: new WireObject(value, '').array('balances', readSpotBalance) }));
}
