import { describe, expect, it } from '@jest/globals';
import { fixtureJson } from '#testing';
import { parseFill, parseUserFills, readNodeFillEvent } from './fill.parser.js';

const firstEvent = (name: string, index = 0): unknown => (fixtureJson(name) as { events: unknown[] }).events[index];
/** The raw fill object of a node_fills_by_block fixture event. */
const rawFill = (name: string, index = 0): Record<string, unknown> => (firstEvent(name, index) as [string, Record<string, unknown>])[1];

describe('fills', () => {
  it('read the liquidation fixture with its liquidation object and exact decimals', () => {
    const event = readNodeFillEvent(firstEvent('node_fills_by_block_liquidation.json'), 'events[0]', 0);
    expect(event.address).toBe('0xa775d1bd91ee2cc4cae6113e5fd9c0c17b355277');
    expect(event.fill).toEqual({
      coin: 'SOL',
      px: '72.153',
      sz: '0.58',
      side: 'A',
      time: 1782636233257,
      startPosition: '-162.6',
      dir: 'Open Short',
      closedPnl: '0.0',
      hash: '0xdc25d330b40799afdd9f043ebc4c38000060eb164f0ab8817fee7e83730b739a',
      oid: 481702553903,
      crossed: false,
      fee: '-0.001255',
      tid: 340554939716632,
      cloid: '0x00000000000000000000019f08a8bdd8',
      feeToken: 'USDC',
      twapId: null,
      builder: null,
      builderFee: null,
      liquidation: { liquidatedUser: '0x5ef843ccf26810073ee689a954f6d05f5b48fccb', markPx: '72.149', method: 'market' },
    });
  });

  it('read both sides of the TWAP slice: same tid, zero hash, twapId on the owner side only', () => {
    const owner = readNodeFillEvent(firstEvent('node_fills_by_block_twap.json', 0), 'events[0]', 0);
    const maker = readNodeFillEvent(firstEvent('node_fills_by_block_twap.json', 1), 'events[1]', 1);
    expect(owner.fill.twapId).toBe(1305284);
    expect(owner.fill.hash).toBe(`0x${'0'.repeat(64)}`);
    expect(owner.fill.tid).toBe(990908538720549);
    expect(owner.fill.cloid).toBeNull(); // absent on the wire
    expect(maker.fill.tid).toBe(owner.fill.tid);
    expect(maker.fill.hash).toBe(owner.fill.hash);
    expect(maker.fill.twapId).toBeNull();
    expect([owner.fill.side, maker.fill.side]).toEqual(['B', 'A']);
    expect([owner.fill.fee, maker.fill.fee]).toEqual(['0.040673', '-0.000903']);
  });

  it('keep builder and builderFee when present', () => {
    const result = parseFill(
      { ...rawFill('node_fills_by_block_twap.json', 1), builder: '0x1c1c270b573d55b68b3d14722b5d5d401511bed0', builderFee: '0.0001' },
      { stream: 'test' },
    );
    expect(result.ok && [result.value.builder, result.value.builderFee]).toEqual(['0x1c1c270b573d55b68b3d14722b5d5d401511bed0', '0.0001']);
  });

  it('read all 500 fills of info_userFills.json, which predate trade ids', () => {
    const result = parseUserFills(fixtureJson('info_userFills.json'), { file: 'info_userFills.json' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.issues).toEqual([]);
    expect(result.value).toHaveLength(500);
    expect(result.value[0]).toMatchObject({
      coin: 'SUI',
      px: '1.3189',
      sz: '142.7',
      side: 'A',
      startPosition: '4623.5',
      dir: 'Close Long',
      tid: null,
      feeToken: null,
    });
    expect(result.value.filter((fill) => fill.coin === 'SUI')).toHaveLength(242);
    const dirs = new Set(result.value.map((fill) => fill.dir));
    expect(dirs).toEqual(new Set(['Close Long', 'Close Short', 'Open Short', 'Open Long', 'Short > Long', 'Long > Short']));
    for (const fill of result.value) expect(typeof fill.px).toBe('string');
  });

  it('refuse a fill without tid where one is required, naming the field', () => {
    const { tid: _tid, ...withoutTid } = rawFill('node_fills_by_block_twap.json');
    expect(parseFill(withoutTid, { file: 'x', line: 3 })).toEqual({
      ok: false,
      error: { source: { file: 'x', line: 3 }, path: 'tid', message: 'missing' },
    });
  });

  it('refuse a liquidation object without its victim', () => {
    const fill = { ...rawFill('node_fills_by_block_liquidation.json'), liquidation: { markPx: '1.0', method: 'market' } };
    const result = parseFill(fill, {});
    expect(!result.ok && result.error.path).toBe('liquidation.liquidatedUser');
  });
});
