import { describe, expect, it } from '@jest/globals';
import { fixtureJson, fixtureText } from '#testing';
import { parseBlock, parseBlockLine, toNodeStream } from './node-block.parser.js';

const FILE = '/data/node_fills_by_block/hourly/20251027/6';

/** A fixture as the single line hl-node writes. */
const line = (name: string): string => JSON.stringify(fixtureJson(name));

describe('hl-node block lines', () => {
  it('read the fills block envelope with times in ms and as written', () => {
    const result = parseBlockLine('node_fills_by_block', fixtureText('node_fills_by_block_liquidation.json'), { file: FILE, line: 1 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.issues).toEqual([]);
    const { events, ...header } = result.value;
    expect(header).toEqual({
      stream: 'node_fills_by_block',
      blockNumber: 1052527672,
      blockTime: '2026-06-28T08:43:53.257028820',
      blockTimeMs: 1782636233257,
      localTime: '2026-06-28T08:43:53.687645997',
      localTimeMs: 1782636233687,
    });
    expect(events).toHaveLength(1);
    expect(events[0]!.fill.liquidation?.liquidatedUser).toBe('0x5ef843ccf26810073ee689a954f6d05f5b48fccb');
    expect(events[0]!.fill.time).toBe(header.blockTimeMs); // a fill's time is its block's time in ms
  });

  it('dispatch on the stream name, including the misc alias the samples use', () => {
    expect(toNodeStream('misc_events_by_block')).toBe('misc_events_by_block');
    expect(toNodeStream('node_misc_events_by_block')).toBe('misc_events_by_block');
    expect(toNodeStream('node_trades')).toBeNull();
    const twap = parseBlockLine('node_twap_statuses_by_block', line('node_twap_statuses_by_block.json'), {});
    expect(twap.ok && twap.value.stream).toBe('node_twap_statuses_by_block');
    const misc = parseBlock('node_misc_events_by_block', (fixtureJson('node_misc_events_by_block.json') as unknown[])[0], {});
    expect(misc.ok && misc.value.stream).toBe('misc_events_by_block');
    expect(parseBlockLine('node_trades', '{}', { file: 'f', line: 1 })).toEqual({
      ok: false,
      error: { source: { file: 'f', line: 1, stream: 'node_trades' }, path: '', message: 'unknown hl-node stream "node_trades"' },
    });
  });

  describe('malformed input', () => {
    it('a line that is not JSON is one issue for the line', () => {
      const result = parseBlockLine('node_fills_by_block', 'not json at all', { file: FILE, line: 7 });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.source).toEqual({ file: FILE, line: 7, stream: 'node_fills_by_block' });
      expect(result.error.path).toBe('');
      expect(result.error.message).toMatch(/^not JSON: /);
    });

    it('a half-written last line is one issue, not a half block', () => {
      const text = line('node_fills_by_block_twap.json');
      const result = parseBlockLine('node_fills_by_block', text.slice(0, text.length / 2), { file: FILE, line: 12 });
      expect(!result.ok && result.error.message).toMatch(/^not JSON/);
      const blank = parseBlockLine('node_fills_by_block', '   ', { file: FILE, line: 13 });
      expect(blank).toMatchObject({ ok: false, error: { message: 'empty line' } });
    });

    it('a block missing block_number is one issue for the line', () => {
      const { block_number: _dropped, ...block } = fixtureJson('node_fills_by_block_twap.json') as Record<string, unknown>;
      expect(parseBlockLine('node_fills_by_block', JSON.stringify(block), { file: FILE, line: 4 })).toEqual({
        ok: false,
        error: { source: { file: FILE, line: 4, stream: 'node_fills_by_block' }, path: 'block_number', message: 'missing' },
      });
    });

    it('a block whose events are not a list, or whose time is not a timestamp, is one issue', () => {
      const block = fixtureJson('node_twap_statuses_by_block.json') as Record<string, unknown>;
      const noList = parseBlock('node_twap_statuses_by_block', { ...block, events: {} }, { file: FILE, line: 2 });
      expect(!noList.ok && noList.error.path).toBe('events');
      const badTime = parseBlock('node_twap_statuses_by_block', { ...block, block_time: 1764867622417 }, { file: FILE, line: 2 });
      expect(!badTime.ok && badTime.error.path).toBe('block_time');
      expect(parseBlock('node_twap_statuses_by_block', [block], {}).ok).toBe(false);
    });

    it('bad events are reported with file, line and path and skipped; the good ones are kept whole', () => {
      // Build one line from the TWAP fixture: events 0 and 2 are good; 1 has px "abc", 3 lacks tid,
      // 4 has an oid beyond 2^53 (written as text: a JS number could not even hold it).
      const block = fixtureJson('node_fills_by_block_twap.json') as { events: [string, Record<string, unknown>][] };
      const [owner, maker] = block.events;
      const { tid: _tid, ...makerWithoutTid } = maker[1];
      const events = [
        owner,
        [owner[0], { ...owner[1], px: 'abc' }],
        maker,
        [maker[0], makerWithoutTid],
        [maker[0], { ...maker[1], oid: 123456789 }],
      ];
      const text = JSON.stringify({ ...block, events }).replace('"oid":123456789', '"oid":9007199254740993');

      const result = parseBlockLine('node_fills_by_block', text, { file: FILE, line: 42 });
      if (!result.ok) throw new Error(result.error.message);
      const source = { file: FILE, line: 42, stream: 'node_fills_by_block' };
      expect(result.issues).toEqual([
        { source, path: 'events[1].fill.px', message: 'expected a decimal string, got "abc"' },
        { source, path: 'events[3].fill.tid', message: 'missing' },
        { source, path: 'events[4].fill.oid', message: 'integer beyond 2^53 - 1 cannot be exact (read as 9007199254740992)' },
      ]);
      expect(result.value.blockNumber).toBe(776534347);
      expect(result.value.events.map((event) => event.index)).toEqual([0, 2]);
      expect(result.value.events.map((event) => event.fill.twapId)).toEqual([1305284, null]);
      expect(result.value.events[1]!.fill.cloid).toBe('0x9152106fa754fb298f52649ec28a812a');
    });

    it('an event that is not an [address, fill] pair is skipped with its path', () => {
      const block = fixtureJson('node_fills_by_block_liquidation.json') as { events: unknown[] };
      const result = parseBlock('node_fills_by_block', { ...block, events: [block.events[0], ['0x12', {}], 'x'] }, { file: FILE, line: 5 });
      if (!result.ok) throw new Error(result.error.message);
      expect(result.value.events).toHaveLength(1);
      expect(result.issues.map((issue) => issue.path)).toEqual(['events[1].address', 'events[2]']);
    });

    it('an order status event with a bad nested child order is skipped alone', () => {
      const block = fixtureJson('node_order_statuses_by_block_excerpt.json') as { events: { order: Record<string, unknown> }[] };
      const [first, second, third] = block.events;
      const badChild = { ...second!, order: { ...second!.order, children: [{ ...first!.order, limitPx: '1e-5' }] } };
      const result = parseBlock('node_order_statuses_by_block', { ...block, events: [first, badChild, third] }, { file: 'x', line: 9 });
      if (!result.ok) throw new Error(result.error.message);
      expect(result.value.events.map((event) => event.status)).toEqual(['open', 'perpMarginRejected']);
      expect(result.issues).toEqual([
        {
          source: { file: 'x', line: 9, stream: 'node_order_statuses_by_block' },
          path: 'events[1].order.children[0].limitPx',
          message: 'expected a decimal string, got "1e-5"',
        },
      ]);
    });
  });
});
