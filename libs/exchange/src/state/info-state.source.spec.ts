import { describe, expect, it } from '@jest/globals';
import { fixtureJson } from '#testing';
import { InfoStateSource, type InfoRequester } from './info-state.source.js';

const GOOD = '0x00000000000000000000000000000000000000aa';
const BROKEN = '0x00000000000000000000000000000000000000bb';
// spotClearinghouseState has no recorded sample; this is its documented shape.
const SPOT = {
  balances: [
    { coin: 'USDC', token: 0, hold: '0.0', total: '12.5', entryNtl: '0.0' },
    { coin: 'HYPE', token: 150, hold: '1.0', total: '42.125', entryNtl: '1500.0' },
  ],
};

/** Answers as an info server would, from the recorded responses; BROKEN's perp state lacks its margin summary. */
const info: InfoRequester = {
  async request(body) {
    if (body.type === 'allMids') return { ...(fixtureJson('info_allMids.json') as object), HYPE: '38.765' };
    if (body.type === 'spotClearinghouseState') return SPOT;
    if (body.type === 'clearinghouseState' && body.user === GOOD) return fixtureJson('info_clearinghouseState.json');
    if (body.type === 'clearinghouseState' && body.user === BROKEN) return { assetPositions: [] };
    throw new Error(`unexpected request ${JSON.stringify(body)}`);
  },
};

describe('InfoStateSource', () => {
  it('maps clearinghouse and spot states to state records, leaving out and reporting a wallet that does not parse', async () => {
    const { state, failures } = await new InfoStateSource(info, 2).read([BROKEN, GOOD.toUpperCase().replace('0X', '0x')], {
      height: 77,
      timeMs: 1_700_000_000_000,
    });
    expect(failures).toEqual([{ address: BROKEN, error: expect.stringContaining('crossMarginSummary') }]);
    expect(state.height).toBe(77);
    expect(state.timeMs).toBe(1_700_000_000_000);
    expect(state.hypePx).toBe('38.765');
    expect(state.wallets).toHaveLength(1);
    const [wallet] = state.wallets;
    expect(wallet).toMatchObject({ address: GOOD, perpEquity: '1182.312496', allTimePnl: null, spotHype: '42.125', stakedHype: '0' });
    expect(wallet!.positions).toHaveLength(12);
    // The recorded BTC short and ETH long, as received (no cumFunding in this 2023 response: funding 0).
    expect(wallet!.positions.slice(0, 2)).toEqual([
      {
        coin: 'BTC',
        szi: '-0.00785',
        entryPx: '26951.0',
        positionValue: '211.64542',
        unrealizedPnl: '-0.08007',
        liquidationPx: '173198.69592357',
        leverageType: 'cross',
        leverage: 20,
        marginUsed: '10.582271',
        fundingSinceOpen: '0',
      },
      {
        coin: 'ETH',
        szi: '0.1334',
        entryPx: '1705.82',
        positionValue: '227.675114',
        unrealizedPnl: '0.118726',
        liquidationPx: null,
        leverageType: 'cross',
        leverage: 20,
        marginUsed: '11.383755',
        fundingSinceOpen: '0',
      },
    ]);
  });
});
