import { describe, expect, it } from '@jest/globals';
import { fixtureJson } from '#testing';
import { parseBlock } from '../node/node-block.parser.js';

const block = () => fixtureJson('node_twap_statuses_by_block.json') as { events: Record<string, unknown>[] };

describe('TWAP statuses', () => {
  it('read the activated TWAP of the fixture', () => {
    const result = parseBlock('node_twap_statuses_by_block', block(), { file: 'twap', line: 1 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.issues).toEqual([]);
    expect(result.value.blockNumber).toBe(817824346);
    expect(result.value.events).toEqual([
      {
        index: 0,
        time: '2025-12-04T17:00:22.417074898',
        timeMs: 1764867622417,
        twapId: 1430699,
        state: {
          coin: 'HYPE',
          user: '0x9d6a5ab97a8eed617bde9968d9ab6fcf72fde1b8',
          side: 'A',
          sz: '108.36',
          executedSz: '0.0',
          executedNtl: '0.0',
          minutes: 10,
          reduceOnly: false,
          randomize: false,
          timestamp: 1764867622417,
        },
        status: 'activated',
        description: null,
      },
    ]);
  });

  it('normalise an error object to status error with its message, and keep unknown statuses', () => {
    const [event] = block().events;
    const statuses = [{ error: 'Insufficient margin to place order.' }, 'finished', 'terminated', 'paused', { reason: 'x' }];
    const result = parseBlock('node_twap_statuses_by_block', { ...block(), events: statuses.map((status) => ({ ...event, status })) }, {});
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.events.map(({ status, description }) => [status, description])).toEqual([
      ['error', 'Insufficient margin to place order.'],
      ['finished', null],
      ['terminated', null],
      ['unknown', 'paused'],
      ['unknown', '{"reason":"x"}'],
    ]);
  });

  it('skip an event without status or with a bad state, naming the path', () => {
    const [event] = block().events;
    const { status: _status, ...withoutStatus } = event!;
    const badState = { ...event, state: { ...(event!['state'] as object), minutes: '10' } };
    const wire = { ...block(), events: [withoutStatus, event, badState] };
    const result = parseBlock('node_twap_statuses_by_block', wire, { file: 'f', line: 3 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.events.map((e) => e.index)).toEqual([1]);
    expect(result.issues.map((issue) => [issue.path, issue.message])).toEqual([
      ['events[0].status', 'missing'],
      ['events[2].state.minutes', 'expected a non-negative integer, got "10"'],
    ]);
  });
});
