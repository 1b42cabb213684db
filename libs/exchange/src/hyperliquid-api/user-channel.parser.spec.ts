import { describe, expect, it } from '@jest/globals';
import { fixtureJson } from '#testing';
import { parseUserChannelMessage } from './user-channel.parser.js';

const USER = '0x2ba553d9f990a3b66b03b2dc0d030dfc1c061036';
const TWAP_STATE = {
  coin: 'HYPE',
  user: USER,
  side: 'A',
  sz: '108.36',
  executedSz: '0.0',
  executedNtl: '0.0',
  minutes: 10,
  reduceOnly: false,
  randomize: false,
  timestamp: 1764867622417,
};

const parse = (value: unknown) => parseUserChannelMessage(value, { stream: 'test' });

describe('user channel messages', () => {
  it('read userEvents on its wire channel `user` and as the fixture names it, without a wallet', () => {
    const frame = (fixtureJson('ws_frames_mixed.json') as Array<{ channel: string; data: unknown }>)[3]!;
    for (const channel of ['user', 'userEvents']) {
      const result = parse({ channel, data: frame.data });
      if (!result.ok || result.value.kind !== 'activity') throw new Error('expected activity');
      expect(result.issues).toEqual([]);
      const { user, isSnapshot, activity } = result.value;
      expect([user, isSnapshot, activity.fills.map((f) => f.tid), activity.ledger, activity.twaps]).toEqual([
        null,
        false,
        [669583051366496],
        [],
        [],
      ]);
      expect(activity.fundings).toEqual([
        { time: 1791280800037, coin: 'BTC', usdc: '-0.601087', szi: '0.55919', fundingRate: '0.0000125', nSamples: 24, hash: null },
      ]);
    }
  });

  it('read userFundings and userNonFundingLedgerUpdates with their wallet and snapshot flag', () => {
    const fundings = parse({
      channel: 'userFundings',
      data: {
        isSnapshot: true,
        user: USER.toUpperCase().replace('0X', '0x'),
        fundings: [{ time: 7, coin: 'ETH', usdc: '1.5', szi: '-2.0', fundingRate: '0.0001', nSamples: null }],
      },
    });
    expect(fundings).toEqual({
      ok: true,
      issues: [],
      value: {
        kind: 'activity',
        channel: 'userFundings',
        user: USER,
        isSnapshot: true,
        activity: {
          fills: [],
          ledger: [],
          twaps: [],
          fundings: [{ time: 7, coin: 'ETH', usdc: '1.5', szi: '-2.0', fundingRate: '0.0001', nSamples: null, hash: null }],
        },
      },
    });
    const updates = fixtureJson('info_userNonFundingLedgerUpdates.json') as unknown[];
    const ledger = parse({ channel: 'userNonFundingLedgerUpdates', data: { user: USER, nonFundingLedgerUpdates: updates } });
    if (!ledger.ok || ledger.value.kind !== 'activity') throw new Error('expected activity');
    expect([ledger.value.isSnapshot, ledger.value.activity.ledger.map((u) => u.delta.type)]).toEqual([
      false,
      ['deposit', 'accountClassTransfer', 'spotTransfer', 'accountClassTransfer', 'deposit'],
    ]);
  });

  it('read userTwapHistory: seconds to ms, error statuses with their message, a record without twapId is an issue', () => {
    const result = parse({
      channel: 'userTwapHistory',
      data: {
        user: USER,
        history: [
          { time: 1764867622, state: TWAP_STATE, status: { status: 'activated' }, twapId: 1430699 },
          { time: 1764867700, state: TWAP_STATE, status: { status: 'error', description: 'Insufficient margin' }, twapId: 1430700 },
          { time: 1764867800, state: TWAP_STATE, status: { status: 'finished' } },
        ],
      },
    });
    if (!result.ok || result.value.kind !== 'activity') throw new Error('expected activity');
    expect(
      result.value.activity.twaps.map(({ timeMs, twapId, status, description, state }) => [timeMs, twapId, status, description, state.sz]),
    ).toEqual([
      [1764867622000, 1430699, 'activated', null, '108.36'],
      [1764867700000, 1430700, 'error', 'Insufficient margin', '108.36'],
    ]);
    expect(result.issues).toEqual([{ source: { stream: 'test' }, path: 'data.history[2].twapId', message: 'missing' }]);
  });

  it('tell server errors and other channels apart, and fail a frame without its wallet', () => {
    expect(parse({ channel: 'error', data: 'Invalid subscription' })).toMatchObject({
      ok: true,
      value: { kind: 'error', message: 'Invalid subscription' },
    });
    expect(parse({ channel: 'pong' })).toMatchObject({ ok: true, value: { kind: 'other', channel: 'pong' } });
    expect(parse({ channel: 'userFills', data: { fills: [] } })).toEqual({
      ok: false,
      error: { source: { stream: 'test' }, path: 'data.user', message: 'missing' },
    });
    expect(parse({ channel: 'userFills', data: { user: USER, fills: {} } })).toMatchObject({ ok: false, error: { path: 'data.fills' } });
  });
});
