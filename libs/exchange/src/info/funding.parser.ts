import { parseEach, WireError, type ParseResult, type ParseSource } from '../parse/parse-result.js';
import { WireObject } from '../parse/wire-reader.js';
import type { FundingRate, UserFunding } from './info.types.js';

function readUserFunding(value: unknown, path: string): UserFunding {
  const o = new WireObject(value, path);
  const d = o.object('delta');
  if (d.string('type') !== 'funding') throw new WireError(d.at('type'), `expected "funding", got ${JSON.stringify(d.raw['type'])}`);
  return {
    time: o.uint('time'),
    hash: o.hash('hash'),
    delta: {
      type: 'funding',
      coin: d.nonEmptyString('coin'),
      usdc: d.decimal('usdc'),
      szi: d.decimal('szi'),
      fundingRate: d.decimal('fundingRate'),
      nSamples: d.optionalUint('nSamples'),
    },
  };
}

function readFundingRate(value: unknown, path: string): FundingRate {
  const o = new WireObject(value, path);
  return { coin: o.nonEmptyString('coin'), fundingRate: o.decimal('fundingRate'), premium: o.decimal('premium'), time: o.uint('time') };
}

/** Info `userFunding`. */
export function parseUserFunding(value: unknown, source: ParseSource): ParseResult<UserFunding[]> {
  return parseEach(value, source, '', readUserFunding);
}

/** Info `fundingHistory`. */
export function parseFundingHistory(value: unknown, source: ParseSource): ParseResult<FundingRate[]> {
  return parseEach(value, source, '', readFundingRate);
}
