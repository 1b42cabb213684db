import { describe, expect, it } from '@jest/globals';
import { fixtureJson } from '#testing';
import { readNodeFillEvent } from './fill.parser.js';
import type { NodeFillEvent } from './fill.types.js';
import {
  dexOf,
  endPosition,
  isLiquidatedSide,
  isSpotCoin,
  isTwapSlice,
  isZeroHash,
  signedSize,
  signedStartPosition,
  startPositionSide,
} from './fill.helpers.js';

const events = (name: string): NodeFillEvent[] =>
  (fixtureJson(name) as { events: unknown[] }).events.map((event, index) => readNodeFillEvent(event, `events[${index}]`, index));

describe('fill helpers', () => {
  it('tell the liquidated side from the liquidator side', () => {
    const { address, fill } = events('node_fills_by_block_liquidation.json')[0]!;
    // The fixture's fill belongs to the liquidator: liquidatedUser is someone else.
    expect(isLiquidatedSide(fill, address)).toBe(false);
    expect(isLiquidatedSide(fill, '0x5EF843CCF26810073EE689A954F6D05F5B48FCCB')).toBe(true);
    expect(isLiquidatedSide({ liquidation: null }, address)).toBe(false);
  });

  it('sign positions and sizes exactly', () => {
    const { fill } = events('node_fills_by_block_liquidation.json')[0]!;
    expect(signedStartPosition(fill).toFixed()).toBe('-162.6');
    expect(startPositionSide(fill)).toBe('short');
    expect(signedSize(fill).toFixed()).toBe('-0.58');
    expect(endPosition(fill).toFixed()).toBe('-163.18');
    expect(startPositionSide({ startPosition: '0.0' })).toBe('flat');
    expect(endPosition({ startPosition: '0.1', side: 'B', sz: '0.2' }).toFixed()).toBe('0.3'); // no float drift
  });

  it('name the venue of a market', () => {
    expect(dexOf('BTC')).toBe('');
    expect(dexOf('xyz:XYZ100')).toBe('xyz');
    expect(dexOf('@107')).toBe('');
    expect(isSpotCoin('@107')).toBe(true);
    expect(isSpotCoin('PURR/USDC')).toBe(true);
    expect(isSpotCoin('xyz:XYZ100')).toBe(false);
  });

  it('see a TWAP slice by twapId, not by the zero hash both sides share', () => {
    const [owner, maker] = events('node_fills_by_block_twap.json') as [NodeFillEvent, NodeFillEvent];
    expect(isTwapSlice(owner.fill)).toBe(true);
    expect(isTwapSlice(maker.fill)).toBe(false);
    expect(isZeroHash(owner.fill.hash) && isZeroHash(maker.fill.hash)).toBe(true);
  });
});
