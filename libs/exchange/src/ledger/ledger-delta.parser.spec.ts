import { describe, expect, it } from '@jest/globals';
import { fixtureJson } from '#testing';
import { parseLedgerUpdates, readLedgerDelta } from './ledger-delta.parser.js';
import { classifyLedgerDelta, isDeposit, isWithdraw } from './ledger.helpers.js';

const ALICE = '0x2ba553d9f990a3b66b03b2dc0d030dfc1c061036';
const BOB = '0xaaa0c2769cb990f4f37db951a9e48de2385c2733';
const VAULT = '0xdfc24b077bc1425ad1dea75bcb6f8158e10df303';

describe('ledger updates', () => {
  it('read the fixture: deposits, account class transfers and a spot transfer', () => {
    const result = parseLedgerUpdates(fixtureJson('info_userNonFundingLedgerUpdates.json'), { file: 'ledger' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.issues).toEqual([]);
    expect(result.value.map((update) => update.delta.type)).toEqual([
      'deposit',
      'accountClassTransfer',
      'spotTransfer',
      'accountClassTransfer',
      'deposit',
    ]);
    expect(result.value[0]).toEqual({
      time: 1731999196516,
      hash: '0x09ddd9f712b5df0945af34b055bbb3329c88ca001aff41bbfd4341d80bc760ce',
      delta: { type: 'deposit', usdc: '2703997.4500000002' }, // kept exactly; a float would lose the tail
    });
    expect(result.value[1]!.delta).toEqual({ type: 'accountClassTransfer', usdc: '12.0', toPerp: false });
    expect(result.value[2]!.delta).toEqual({
      type: 'spotTransfer',
      token: 'USDC',
      amount: '10.5',
      usdcValue: '10.5',
      user: ALICE,
      destination: BOB,
      fee: '1.0',
      nativeTokenFee: '0.0',
      nonce: null,
      feeToken: '',
    });
    expect(result.value.map((update) => classifyLedgerDelta(update.delta))).toEqual([
      { direction: 'deposit', usdc: '2703997.4500000002' },
      null,
      null,
      null,
      { direction: 'deposit', usdc: '1099994.98' },
    ]);
  });

  it('read the other documented delta types', () => {
    // Complete deltas read back field for field.
    const complete = [
      { type: 'withdraw', usdc: '100.0', nonce: 1731999196516, fee: '1.0' },
      { type: 'internalTransfer', usdc: '5.0', user: ALICE, destination: BOB, fee: '1.0' },
      { type: 'subAccountTransfer', usdc: '7.5', user: ALICE, destination: BOB },
      {
        type: 'liquidation',
        liquidatedNtlPos: '356.80015',
        accountValue: '2.956494',
        leverageType: 'Cross',
        liquidatedPositions: [{ coin: 'BTC', szi: '-0.0041' }],
      },
      { type: 'vaultDeposit', vault: VAULT, usdc: '100.0' },
      {
        type: 'vaultWithdraw',
        vault: VAULT,
        user: ALICE,
        requestedUsd: '50.0',
        commission: '0.0',
        closingCost: '0.0',
        basis: '48.0',
        netWithdrawnUsd: '50.0',
      },
    ];
    for (const wire of complete) expect(readLedgerDelta(wire, 'delta')).toEqual(wire);
    const withdraw = readLedgerDelta({ type: 'withdraw', usdc: '100.0' }, 'delta');
    expect(withdraw).toEqual({ type: 'withdraw', usdc: '100.0', nonce: null, fee: null });
    expect(classifyLedgerDelta(withdraw)).toEqual({ direction: 'withdraw', usdc: '100.0' });
    expect([isDeposit(withdraw), isWithdraw(withdraw)]).toEqual([false, true]);
  });

  it('keep unknown delta types whole, and skip a known one with a bad field', () => {
    const raw = { type: 'borrowLend', token: 'USDC', operation: 'supply', amount: '10.0' };
    expect(readLedgerDelta(raw, 'delta')).toEqual({ type: 'unknown', wireType: 'borrowLend', raw });
    const result = parseLedgerUpdates(
      [
        { time: 1, hash: `0x${'1'.repeat(64)}`, delta: raw },
        { time: 2, hash: `0x${'2'.repeat(64)}`, delta: { type: 'deposit', usdc: 12 } },
        { time: 3, hash: `0x${'3'.repeat(64)}`, delta: { type: 'subAccountTransfer', usdc: '1.0', user: 'alice', destination: BOB } },
      ],
      { file: 'ledger.json' },
    );
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.map((update) => update.time)).toEqual([1]);
    expect(result.issues.map((issue) => issue.path)).toEqual(['[1].delta.usdc', '[2].delta.user']);
  });
});
