import { describe, expect, it } from '@jest/globals';
import { fixtureJson } from '#testing';
import { parseWsFrame } from './ws-frame.parser.js';
import type { WsFrame } from './ws-frame.types.js';

const FILE = 'ws_frames_mixed.json';
const frames = () => fixtureJson(FILE) as { channel: string; data: Record<string, unknown> }[];

function parsedFrames(): WsFrame[] {
  return frames().map((frame, index) => {
    const result = parseWsFrame(frame, { file: FILE, line: index + 1 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.issues).toEqual([]);
    return result.value;
  });
}

describe('websocket frames', () => {
  it('read every channel of the fixture', () => {
    expect(parsedFrames().map((frame) => frame.channel)).toEqual(['activeAssetCtx', 'l2Book', 'trades', 'userEvents', 'candle']);
  });

  it('read the asset context, book, trade and candle', () => {
    const [ctx, book, trades, , candle] = parsedFrames();
    expect(ctx).toMatchObject({
      channel: 'activeAssetCtx',
      data: {
        coin: 'BTC',
        ctx: {
          funding: '0.0000125',
          markPx: '85814.0',
          oraclePx: '85828.0',
          impactPxs: ['85811.0', '85812.0'],
          dayNtlVlm: '1821282705.4506571293',
        },
      },
    });
    expect(book).toMatchObject({
      channel: 'l2Book',
      data: {
        coin: 'BTC',
        time: 1791278882097,
        levels: [
          [{ px: '85821.0', sz: '0.96592', n: 4 }, {}],
          [{ px: '85822.0', n: 71 }, {}],
        ],
      },
    });
    expect(trades).toEqual({
      channel: 'trades',
      data: [
        {
          coin: 'BTC',
          side: 'B',
          px: '85827.0',
          sz: '0.02721',
          time: 1791278878126,
          hash: '0xe7a30278f69a68bee91c0445f4fe140206c5005e919d87908b6badcbb59e42a9',
          tid: 188095306343783,
          users: ['0x0000000000000000000000000000000000000004', '0x0000000000000000000000000000000000000005'],
        },
      ],
    });
    expect(candle).toEqual({
      channel: 'candle',
      data: {
        t: 1791278880000,
        T: 1791278939999,
        s: 'BTC',
        i: '1m',
        o: '85827.0',
        c: '85812.0',
        h: '85827.0',
        l: '85801.0',
        v: '0.73617',
        n: 20,
      },
    });
  });

  it('read userEvents: a backstop liquidation fill with twapId and builderFee, funding, liquidation, nonUserCancel', () => {
    const frame = parsedFrames()[3]!;
    if (frame.channel !== 'userEvents') throw new Error('not userEvents');
    const { fills, funding, liquidation, nonUserCancel, other } = frame.data;
    expect(fills).toHaveLength(1);
    expect(fills![0]).toMatchObject({
      coin: 'BTC',
      dir: 'Close Short',
      tid: 669583051366496,
      twapId: 2288616,
      builderFee: '0.0001',
      liquidation: { liquidatedUser: '0x000000000000000000000000000000000000000b', markPx: '86010.0', method: 'backstop' },
    });
    expect(funding).toEqual({
      time: 1791280800037,
      coin: 'BTC',
      usdc: '-0.601087',
      szi: '0.55919',
      fundingRate: '0.0000125',
      nSamples: 24,
    });
    expect(liquidation).toEqual({
      lid: 123456,
      liquidator: '0x0000000000000000000000000000000000000009',
      liquidatedUser: '0x000000000000000000000000000000000000000b',
      liquidatedNtlPos: '356.80015',
      liquidatedAccountValue: '2.956494',
    });
    expect(nonUserCancel).toEqual([{ coin: 'PNUT', oid: 566615769247 }]);
    expect(other).toBeNull();
  });

  it('keep unknown channels, and skip a bad trade or fill with its path while keeping the frame', () => {
    expect(parseWsFrame({ channel: 'subscriptionResponse', data: { method: 'subscribe' } }, {})).toEqual({
      ok: true,
      value: { channel: 'unknown', wireChannel: 'subscriptionResponse', data: { method: 'subscribe' } },
      issues: [],
    });
    const [, , trades, userEvents] = frames();
    const trade = (trades!.data as unknown as Record<string, unknown>[])[0]!;
    const badTrades = parseWsFrame({ channel: 'trades', data: [trade, { ...trade, tid: 2 ** 53 }] }, { file: FILE, line: 3 });
    expect(badTrades.ok && badTrades.value.data).toHaveLength(1);
    expect(badTrades.ok && badTrades.issues.map((issue) => issue.path)).toEqual(['data[1].tid']);

    const fill = (userEvents!.data['fills'] as Record<string, unknown>[])[0]!;
    const badFills = parseWsFrame({ channel: 'userEvents', data: { fills: [{ ...fill, sz: '-' }, fill] } }, { file: FILE, line: 4 });
    if (!badFills.ok || badFills.value.channel !== 'userEvents') throw new Error('expected a userEvents frame');
    expect(badFills.value.data.fills).toHaveLength(1);
    expect(badFills.value.data.funding).toBeNull();
    expect(badFills.issues).toEqual([
      { source: { file: FILE, line: 4 }, path: 'data.fills[0].sz', message: 'expected a decimal string, got "-"' },
    ]);

    expect(parseWsFrame('pong', {})).toMatchObject({ ok: false, error: { path: '' } });
    const badCandle = parseWsFrame({ channel: 'candle', data: { ...frames()[4]!.data, n: 'x' } }, {});
    expect(badCandle).toMatchObject({ ok: false, error: { path: 'data.n' } });
  });
});
