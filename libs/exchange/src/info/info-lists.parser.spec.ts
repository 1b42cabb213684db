import { describe, expect, it } from '@jest/globals';
import { fixtureJson } from '#testing';
import { parseDelegatorHistory } from './delegator-history.parser.js';
import { parseFundingHistory, parseUserFunding } from './funding.parser.js';
import { parseAllMids, parseL2Book, parseMeta } from './market-info.parser.js';

describe('info responses', () => {
  it('userFunding: 13 funding payments', () => {
    const result = parseUserFunding(fixtureJson('info_userFunding.json'), {});
    if (!result.ok) throw new Error(result.error.message);
    expect(result.issues).toEqual([]);
    expect(result.value).toHaveLength(13);
    expect(result.value[0]).toEqual({
      time: 1681948800000,
      hash: '0xe3f4c682738ae2ee62510a7282db05c55f1b2032b6a366be9af99d6c809ac899',
      delta: { type: 'funding', coin: 'APE', usdc: '0.145796', szi: '40.13333333', fundingRate: '-0.00029319', nSamples: 3 },
    });
  });

  it('fundingHistory: 34 BTC rates', () => {
    const result = parseFundingHistory(fixtureJson('info_fundingHistory_BTC.json'), {});
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value).toHaveLength(34);
    expect(result.value[0]).toEqual({ coin: 'BTC', fundingRate: '-0.00061334', premium: '-0.00091334', time: 1683849600048 });
    expect(result.value[33]).toEqual({ coin: 'BTC', fundingRate: '-0.00018991', premium: '-0.00048991', time: 1684800000022 });
  });

  it('delegatorHistory: delegations and staking deposits, unknown kinds kept', () => {
    const result = parseDelegatorHistory(fixtureJson('info_delegatorHistory.json'), {});
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.map((event) => event.delta)).toEqual([
      { kind: 'delegate', validator: '0xb8f45222a3246a2b0104696a1df26842007c5bc5', amount: '89968.0', isUndelegate: false },
      { kind: 'cDeposit', amount: '89968.0' },
      { kind: 'delegate', validator: '0xb8f45222a3246a2b0104696a1df26842007c5bc5', amount: '10000.1', isUndelegate: false },
      { kind: 'cDeposit', amount: '10000.1' },
    ]);
    const later = parseDelegatorHistory([{ time: 1, hash: `0x${'a'.repeat(64)}`, delta: { claimRewards: { amount: '1.0' } } }], {});
    expect(later.ok && later.value[0]!.delta).toEqual({ kind: 'unknown', wireKind: 'claimRewards', raw: { amount: '1.0' } });
  });

  it('meta: 28 perp markets, asset id = index', () => {
    const result = parseMeta(fixtureJson('info_meta.json'), {});
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.universe).toHaveLength(28);
    expect(result.value.universe[0]).toEqual({ name: 'BTC', szDecimals: 5, maxLeverage: 50, onlyIsolated: false, isDelisted: false });
    expect(result.value.universe.findIndex((asset) => asset.name === 'kPEPE')).toBe(15);
    // One bad market fails the whole universe: skipping it would shift every later asset id.
    const wire = fixtureJson('info_meta.json') as { universe: Record<string, unknown>[] };
    wire.universe[3]!['szDecimals'] = '1';
    expect(parseMeta(wire, { file: 'meta' })).toMatchObject({ ok: false, error: { path: 'universe[3].szDecimals' } });
  });

  it('allMids: 28 mids as exact strings', () => {
    const result = parseAllMids(fixtureJson('info_allMids.json'), {});
    if (!result.ok) throw new Error(result.error.message);
    expect(Object.keys(result.value)).toHaveLength(28);
    expect([result.value['BTC'], result.value['kPEPE']]).toEqual(['30135.0', '0.001565']);
    expect(parseAllMids({ BTC: 30135 }, {})).toMatchObject({ ok: false, error: { path: 'BTC' } });
  });

  it('l2Book: 20 bids best first and 20 asks best first', () => {
    const result = parseL2Book(fixtureJson('info_l2Book_DYDX.json'), {});
    if (!result.ok) throw new Error(result.error.message);
    const [bids, asks] = result.value.levels;
    expect([result.value.coin, result.value.time, bids.length, asks.length]).toEqual(['DYDX', 1689630203930, 20, 20]);
    expect(bids[0]).toEqual({ px: '2.111', sz: '134.4', n: 1 });
    expect(bids[19]).toEqual({ px: '1.81', sz: '2397.0', n: 1 });
    expect(asks[0]).toEqual({ px: '2.1124', sz: '352.3', n: 2 });
    const oneSided = { ...(fixtureJson('info_l2Book_DYDX.json') as object), levels: [[]] };
    expect(parseL2Book(oneSided, {})).toMatchObject({ ok: false, error: { path: 'levels' } });
  });
});
