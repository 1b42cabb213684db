import { describe, expect, it } from '@jest/globals';
import { fixtureJson } from '#testing';
import { parseClearinghouseState, parseSpotClearinghouseState } from './clearinghouse-state.parser.js';

describe('clearinghouse state', () => {
  it('read the fixture: account value, 12 positions, null liquidation prices kept null', () => {
    const result = parseClearinghouseState(fixtureJson('info_clearinghouseState.json'), { file: 'info_clearinghouseState.json' });
    if (!result.ok) throw new Error(result.error.message);
    const state = result.value;
    expect(state.marginSummary.accountValue).toBe('1182.312496');
    expect(state.crossMarginSummary).toEqual({
      accountValue: '1182.312496',
      totalMarginUsed: '171.740766',
      totalNtlPos: '3434.815334',
      totalRawUsd: '86.549602',
    });
    expect(state.withdrawable).toBe('1010.57173');
    expect(state.assetPositions).toHaveLength(12);
    const coins = state.assetPositions.map(({ position }) => position.coin);
    expect(coins).toEqual(['BTC', 'ETH', 'ATOM', 'MATIC', 'DYDX', 'SOL', 'AVAX', 'BNB', 'APE', 'OP', 'LTC', 'ARB']);
    // The 2023 shape: no maxLeverage, cumFunding, crossMaintenanceMarginUsed or time.
    expect(state.assetPositions[0]).toEqual({
      type: 'oneWay',
      position: {
        coin: 'BTC',
        szi: '-0.00785',
        entryPx: '26951.0',
        leverage: { type: 'cross', value: 20, rawUsd: null },
        liquidationPx: '173198.69592357',
        marginUsed: '10.582271',
        positionValue: '211.64542',
        returnOnEquity: '-0.00756643',
        unrealizedPnl: '-0.08007',
        maxTradeSzs: ['0.76534', '0.74964'],
        maxLeverage: null,
        cumFunding: null,
      },
    });
    expect(state.assetPositions[1]!.position.liquidationPx).toBeNull();
    expect(state.assetPositions.filter(({ position }) => position.liquidationPx === null).map(({ position }) => position.coin)).toEqual([
      'ETH',
      'MATIC',
      'SOL',
      'AVAX',
      'BNB',
      'LTC',
      'ARB',
    ]);
    expect([state.crossMaintenanceMarginUsed, state.time]).toEqual([null, null]);
  });

  it('read the newer fields when present', () => {
    type Wire = { assetPositions: { position: Record<string, unknown> }[] } & Record<string, unknown>;
    const wire = fixtureJson('info_clearinghouseState.json') as Wire;
    const [first] = wire.assetPositions;
    const newer = {
      ...wire,
      crossMaintenanceMarginUsed: '42.5',
      time: 1782636233257,
      assetPositions: [
        {
          type: 'oneWay',
          position: {
            ...first!.position,
            leverage: { type: 'isolated', value: 10, rawUsd: '-200.5' },
            maxLeverage: 40,
            cumFunding: { allTime: '1.5', sinceOpen: '0.5', sinceChange: '0.1' },
          },
        },
      ],
    };
    const result = parseClearinghouseState(newer, {});
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.assetPositions[0]!.position).toMatchObject({
      leverage: { type: 'isolated', value: 10, rawUsd: '-200.5' },
      maxLeverage: 40,
      cumFunding: { allTime: '1.5', sinceOpen: '0.5', sinceChange: '0.1' },
    });
    expect([result.value.crossMaintenanceMarginUsed, result.value.time]).toEqual(['42.5', 1782636233257]);
  });

  it('fail as a whole on one bad position: a state with a position left out would misstate equity', () => {
    const wire = fixtureJson('info_clearinghouseState.json') as { assetPositions: { position: Record<string, unknown> }[] };
    wire.assetPositions[4]!.position['liquidationPx'] = 11.841653;
    expect(parseClearinghouseState(wire, { file: 'state.json' })).toEqual({
      ok: false,
      error: {
        source: { file: 'state.json' },
        path: 'assetPositions[4].position.liquidationPx',
        message: 'expected a decimal string, got number 11.841653',
      },
    });
    const { liquidationPx: _gone, ...withoutKey } = wire.assetPositions[0]!.position;
    const missing = parseClearinghouseState({ ...wire, assetPositions: [{ type: 'oneWay', position: withoutKey }] }, {});
    expect(!missing.ok && [missing.error.path, missing.error.message]).toEqual(['assetPositions[0].position.liquidationPx', 'missing']);
  });
});

describe('spot clearinghouse state', () => {
  // No recorded sample exists; this is the documented shape {balances: [{coin, token, hold, total, entryNtl}]}.
  const sample = {
    balances: [
      { coin: 'USDC', token: 0, hold: '0.0', total: '1523.409183', entryNtl: '0.0' },
      { coin: 'HYPE', token: 150, hold: '12.5', total: '304.11834', entryNtl: '7286.512233' },
    ],
  };

  it('read balances with exact decimals and the token index', () => {
    expect(parseSpotClearinghouseState(sample, { file: 'spot' })).toEqual({ ok: true, value: sample, issues: [] });
  });

  it('fail as a whole on a bad balance', () => {
    const bad = { balances: [sample.balances[0], { ...sample.balances[1], token: -1 }] };
    const result = parseSpotClearinghouseState(bad, { file: 'spot' });
    expect(!result.ok && result.error.path).toBe('balances[1].token');
    expect(parseSpotClearinghouseState({}, {})).toMatchObject({ ok: false, error: { path: 'balances', message: 'missing' } });
  });
});
