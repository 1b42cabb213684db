import { describe, expect, it } from '@jest/globals';
import { fixtureJson } from '#testing';
import { parseBlock } from '../node/node-block.parser.js';
import type { NodeMiscEventsBlock } from '../node/node-block.types.js';

const FILE = 'node_misc_events_by_block.json';

/** The fixture holds an array of block lines; each is parsed as its own line. */
function blocks(): NodeMiscEventsBlock[] {
  return (fixtureJson(FILE) as unknown[]).map((value, index) => {
    const result = parseBlock('misc_events_by_block', value, { file: FILE, line: index + 1 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.issues).toEqual([]);
    return result.value;
  });
}

describe('misc events', () => {
  it('read the kinds of the fixture in order', () => {
    expect(blocks().map((block) => [block.blockNumber, block.events.map((event) => event.kind)])).toEqual([
      [1030773868, ['ledgerUpdate']],
      [1030775110, ['delegation', 'cDeposit', 'cWithdrawal']],
      [1030773830, ['funding']],
    ]);
  });

  it('read a LedgerUpdate send with its users and delta', () => {
    const [event] = blocks()[0]!.events;
    expect(event).toEqual({
      index: 0,
      time: '2026-06-11T01:00:02.896899363',
      timeMs: Date.UTC(2026, 5, 11, 1, 0, 2, 896),
      hash: '0x5a44d83dc07d168a5bbe043d705c6c02055b00235b70355cfe0d83907f70f074',
      kind: 'ledgerUpdate',
      users: ['0x8b1c0722a978599bb254c2bdd75992fa605073f6', '0x2000000000000000000000000000000000000000'],
      delta: {
        type: 'send',
        user: '0x8b1c0722a978599bb254c2bdd75992fa605073f6',
        destination: '0x2000000000000000000000000000000000000000',
        sourceDex: 'spot',
        destinationDex: 'spot',
        token: 'USDC',
        amount: '500.008953',
        usdcValue: '500.008953',
        fee: '0.0',
        nativeTokenFee: '0.00002',
        nonce: 1781139594371,
        feeToken: '',
      },
    });
  });

  it('read Delegation, CDeposit and CWithdrawal with snake_case fields in camelCase', () => {
    const [delegation, deposit, withdrawal] = blocks()[1]!.events;
    expect(delegation).toMatchObject({
      kind: 'delegation',
      user: '0xde399799d4abda687280ad4512554f80f8df9666',
      validator: '0xa23b4556090260828ff3f939d2dbdd4f318b5f1f',
      amount: '4.0',
      isUndelegate: false,
    });
    expect(deposit).toMatchObject({ kind: 'cDeposit', user: '0x163014fed389c392a0a214d2c4a28a73ec804741', amount: '0.00982529' });
    expect(withdrawal).toMatchObject({ kind: 'cWithdrawal', amount: '11.38254596', isFinalized: false });
  });

  it('read the Funding deltas of every user, with the all-zero hash', () => {
    const [event] = blocks()[2]!.events;
    expect(event!.hash).toBe(`0x${'0'.repeat(64)}`);
    expect(event!.kind === 'funding' && event!.deltas).toEqual([
      {
        user: '0x00000000000dfd47d200dc26e4e5c79b7e6de984',
        coin: 'ZEC',
        fundingAmount: '9.330246',
        szi: '280.0',
        fundingRate: '-0.0000810249',
      },
      {
        user: '0x00000000002f3d928030df28cb15b27b56888b9b',
        coin: 'HYPE',
        fundingAmount: '4.506878',
        szi: '-2744.84',
        fundingRate: '0.0000308526',
      },
    ]);
  });

  it('keep unknown inner kinds as unknown, never as errors', () => {
    const block = (fixtureJson(FILE) as { events: Record<string, unknown>[] }[])[1]!;
    const rewards = { validator_to_reward: [['0xa23b4556090260828ff3f939d2dbdd4f318b5f1f', '1.5']] };
    const newKind = { ...block.events[0], inner: { ValidatorRewards: rewards } };
    const result = parseBlock('misc_events_by_block', { ...block, events: [newKind, ...block.events] }, { file: FILE, line: 2 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.issues).toEqual([]);
    expect(result.value.events[0]).toMatchObject({ kind: 'unknown', wireKind: 'ValidatorRewards', raw: rewards });
    expect(result.value.events.map((event) => event.kind)).toEqual(['unknown', 'delegation', 'cDeposit', 'cWithdrawal']);
  });

  it('skip a whole Funding event when one of its deltas is bad, and an inner with two kinds', () => {
    const block = (fixtureJson(FILE) as { events: { inner: { Funding: { deltas: Record<string, unknown>[] } } }[] }[])[2]!;
    const [event] = block.events;
    const deltas = event!.inner.Funding.deltas;
    const badFunding = { ...event, inner: { Funding: { deltas: [deltas[0], { ...deltas[1], funding_amount: 4.506878 }] } } };
    const twoKinds = { ...event, inner: { CDeposit: {}, Funding: {} } };
    const result = parseBlock('misc_events_by_block', { ...block, events: [badFunding, twoKinds, event] }, { file: FILE, line: 3 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.events.map((e) => [e.index, e.kind])).toEqual([[2, 'funding']]);
    const source = { file: FILE, line: 3, stream: 'misc_events_by_block' };
    expect(result.issues).toEqual([
      { source, path: 'events[0].inner.Funding.deltas[1].funding_amount', message: 'expected a decimal string, got number 4.506878' },
      { source, path: 'events[1].inner', message: 'expected exactly one kind key, got CDeposit, Funding' },
    ]);
  });
});
