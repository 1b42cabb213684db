import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import type { NodeBlock } from '#exchange';
import {
  address as A,
  ALERT_T0 as T0,
  alertFillsBlock as fills,
  alertLedgerBlock as ledger,
  alertRule as rule,
  alertTwapsBlock as twaps,
} from '#testing';
import type { AlertRule, RuleFilters } from '../alert.types.js';
import { matchBatch, matchInputFromBlocks, matchStateUpdate, RuleIndex, type PricePoint } from './index.js';

// The other rules (twap_lifecycle, ledger_update, price_crossing, state_updated): real-format hl-node
// block lines (#testing's alert blocks), parsed by the real parser, matched against rules; every
// expected value is written out here by hand.

const sha = (ruleId: number, identity: string) => createHash('sha256').update(`${ruleId}|${identity}`).digest('hex');
const match = (rules: AlertRule[], blocks: NodeBlock[], previous: Map<string, PricePoint> = new Map()) =>
  matchBatch(new RuleIndex(rules), matchInputFromBlocks(blocks, previous));

describe('twap_lifecycle', () => {
  it('delivers one status change per event, source errors as error with their message, spot TWAPs never', () => {
    const r = rule('twap_lifecycle');
    const out = match(
      [r],
      [
        twaps(700, [
          { twapId: 1, status: 'activated' },
          { twapId: 2, status: { error: 'Insufficient margin' } },
          { twapId: 3, status: 'finished', coin: '@107' },
          { twapId: 4, status: 'terminated', user: A(2) },
        ]),
      ],
    );
    expect(out.map((d) => [d.data.twapId, d.data.status, d.data.description, d.data.address])).toEqual([
      [1, 'activated', null, A(1)],
      [2, 'error', 'Insufficient margin', A(1)],
      [4, 'terminated', null, A(2)],
    ]);
    expect(out[0]!.data).toEqual({
      address: A(1),
      coin: 'HYPE',
      twapId: 1,
      status: 'activated',
      description: null,
      side: 'A',
      size: '108.36',
      executedSize: '10.0',
      executedNotional: '400.5',
      minutes: 10,
      reduceOnly: false,
      randomize: true,
      timestamp: T0,
    });
    expect(out[0]!.deliveryId).toBe(sha(r.id, `twap_lifecycle|1|activated|${T0}`));
    // AND across addresses and coins: A(2)'s HYPE TWAP passes an A(2) rule on HYPE, not one on BTC.
    expect(
      match(
        [rule('twap_lifecycle', [A(2)], { coin: ['BTC', 'HYPE'] }), rule('twap_lifecycle', [A(2)], { coin: ['BTC'] })],
        [twaps(701, [{ twapId: 4, status: 'terminated', user: A(2) }])],
      ).map((d) => d.ruleId),
    ).toHaveLength(1);
  });
});

describe('ledger_update', () => {
  const block = () =>
    ledger(800, [
      { users: [A(1)], delta: { type: 'deposit', usdc: '1000.0' } },
      { users: [A(2), A(3), A(2)], delta: { type: 'withdraw', usdc: '999.999999', nonce: 1, fee: '1.0' }, hash: `0x${'cd'.repeat(32)}` },
      { users: [A(4)], delta: { type: 'accountClassTransfer', usdc: '5000', toPerp: true } },
    ]);

  it('delivers one per affected wallet with the exact payload; transfers are not deposits', () => {
    const r = rule('ledger_update');
    const out = match([r], [block()]);
    expect(out.map((d) => [d.data.address, d.data.type, d.data.amount])).toEqual([
      [A(1), 'deposit', '1000.0'],
      [A(2), 'withdraw', '999.999999'],
      [A(3), 'withdraw', '999.999999'],
    ]);
    expect(out[1]).toMatchObject({
      deliveryId: sha(r.id, `ledger_update|0x${'cd'.repeat(32)}|${A(2)}`),
      data: {
        address: A(2),
        type: 'withdraw',
        amount: '999.999999',
        time: new Date(T0).toISOString(),
        hash: `0x${'cd'.repeat(32)}`,
        users: [A(2), A(3), A(2)],
        delta: { type: 'withdraw', usdc: '999.999999' },
      },
    });
  });

  it('applies types and every amount operator exactly at the edges', () => {
    const cases: Array<[RuleFilters, string[]]> = [
      [{ types: ['deposit'] }, [A(1)]],
      [{ amount: { gte: '1000' } }, [A(1)]],
      [{ amount: { gt: '1000' } }, []],
      [{ amount: { gt: '999.9999989' } }, [A(1), A(2), A(3)]],
      [{ amount: { lt: '1000' } }, [A(2), A(3)]],
      [{ amount: { lte: '999.999999' } }, [A(2), A(3)]],
      [{ amount: { eq: '1000.000' } }, [A(1)]],
      [{ amount: { gte: '999.999999', lt: '1000' } }, [A(2), A(3)]],
      [{ types: ['withdraw'], amount: { gte: '1000' } }, []],
    ];
    for (const [filters, wallets] of cases)
      expect([filters, match([rule('ledger_update', [], filters)], [block()]).map((d) => d.data.address)]).toEqual([filters, wallets]);
    expect(match([rule('ledger_update', [A(3), A(1)])], [block()]).map((d) => d.data.address)).toEqual([A(1), A(3)]);
  });
});

describe('price_crossing', () => {
  const tick = (block: number, px: string, time: number) => fills(block, [[A(1), { coin: 'BTC', px, sz: '1', tid: block, time }]], time);

  it('fires above when the previous price was at or below and the new one strictly above; touching does not fire', () => {
    const r = rule('price_crossing', [], { market: 'BTC', threshold: '100000', direction: 'both' });
    const out = match(
      [r],
      [
        tick(1, '100000', T0),
        tick(2, '100000.01', T0 + 1),
        tick(3, '100000.01', T0 + 2),
        tick(4, '100000', T0 + 3),
        tick(5, '99999.99', T0 + 4),
      ],
    );
    expect(out.map((d) => d.data)).toEqual([
      { market: 'BTC', threshold: '100000', direction: 'above', previousPrice: '100000', triggerPrice: '100000.01', eventTime: T0 + 1 },
      // 100000.01 -> 100000 touches the threshold: nothing; 100000 -> 99999.99 crosses it downwards.
      { market: 'BTC', threshold: '100000', direction: 'below', previousPrice: '100000', triggerPrice: '99999.99', eventTime: T0 + 4 },
    ]);
    expect(out[0]!.deliveryId).toBe(sha(r.id, `price_crossing|BTC|2|${T0 + 1}`));
    expect(
      match(
        [rule('price_crossing', [], { market: 'BTC', threshold: '100000', direction: 'above' })],
        [tick(1, '99999', T0), tick(2, '100001', T0 + 1), tick(3, '99999', T0 + 2)],
      ).map((d) => d.data.direction),
    ).toEqual(['above']);
  });

  it('fires every threshold a jump passes over, each once, and none it only reaches', () => {
    const at = (threshold: string, direction: 'above' | 'below' | 'both' = 'both') =>
      rule('price_crossing', [], { market: 'BTC', threshold, direction });
    const rules = [at('110'), at('94.99'), at('100.5', 'below'), at('95'), at('105'), at('100.5', 'above'), at('1000')];
    const out = match(rules, [tick(1, '95', T0), tick(2, '105', T0 + 1), tick(3, '94.99', T0 + 2)]);
    expect(out.map((d) => [d.data.threshold, d.data.direction, d.data.triggerPrice])).toEqual([
      // In rule order. 95 -> 105: 95 (from at) and 100.5 (above) are crossed; 105 is only reached.
      ['95', 'above', '105'],
      ['100.5', 'above', '105'],
      // 105 -> 94.99: 100.5 (below), 95 and 105 are crossed; 94.99 is only reached.
      ['100.5', 'below', '94.99'],
      ['95', 'below', '94.99'],
      ['105', 'below', '94.99'],
    ]);
  });

  it('never compares with a price from before the rule existed, and takes the stored price for the first tick', () => {
    const r = rule('price_crossing', [], { market: 'BTC', threshold: '100' }, T0);
    expect(match([r], [tick(1, '101', T0)], new Map([['BTC', { px: '99', timeMs: T0 - 1 }]]))).toEqual([]);
    expect(match([r], [tick(1, '101', T0 + 1)], new Map([['BTC', { px: '99', timeMs: T0 }]])).map((d) => d.data.previousPrice)).toEqual([
      '99',
    ]);
    expect(
      match([r], [fills(9, [[A(1), { coin: 'ETH', px: '200', sz: '1', tid: 1 }]])], new Map([['ETH', { px: '1', timeMs: T0 }]])),
    ).toEqual([]);
  });
});

describe('state_updated', () => {
  it('fires once per state update for each rule created by then', () => {
    const early = rule('state_updated', [], {}, T0 - 1);
    const late = rule('state_updated', [], {}, T0 + 1);
    expect(matchStateUpdate(new RuleIndex([early, late, rule('ledger_update')]), { height: 42, stateTimeMs: T0 })).toEqual([
      {
        deliveryId: sha(early.id, 'state_updated|42'),
        ruleId: early.id,
        consumerId: 7,
        webhookEndpointId: 9,
        eventType: 'state_updated',
        occurredAtMs: T0,
        data: { height: 42, stateTime: T0 },
      },
    ]);
  });
});
