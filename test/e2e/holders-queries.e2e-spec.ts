import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '#config';
import { HOLDERS, SUPPLY, expected, badRequest, seedHolders } from '../support/holders.fixture.js';
import { useSeededApi } from '../support/seeded-api.js';

describe('HYPE holders', () => {
  const suite = useSeededApi({ name: 'holders-suite' }, seedHolders, { HYPE_CIRCULATING_SUPPLY: SUPPLY });
  const { get } = suite;

  it.each([
    ['asc', 'spotAmount', 'stakedAmount', 'asc'],
    ['desc', 'totalAmountUsd', 'accountValue', 'desc'],
    ['asc', 'accountValue', 'totalAmount', 'desc'],
    ['desc', 'stakedAmount', 'spotAmount', 'asc'],
    ['asc', 'totalAmount', 'totalAmount', 'desc'],
  ] as const)(
    'walks order=%s orderBy=%s rankBy=%s rankOrder=%s by offset: every holder once, in order',
    async (order, orderBy, rankBy, rankOrder) => {
      const all = expected(order, orderBy, rankBy, rankOrder);
      const seen: Array<{ address: string }> = [];
      for (let offset = 0; offset < all.length; offset += 120) {
        const res = await get(
          `${HOLDERS}?order=${order}&orderBy=${orderBy}&rankBy=${rankBy}&rankOrder=${rankOrder}&offset=${offset}&limit=120`,
        );
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ items: all.slice(offset, offset + 120), totalCount: 505 });
        seen.push(...res.body.items);
      }
      expect(seen).toHaveLength(505);
      expect(new Set(seen.map((h) => h.address)).size).toBe(505);
      // Ties (three wallets of each amount) keep the address order.
      expect(seen).toEqual(all);
    },
  );

  it('takes a small limit', async () => {
    expect((await get(`${HOLDERS}?limit=1&offset=3`)).body).toEqual({ items: expected().slice(3, 4), totalCount: 505 });
  });

  it('refuses bad parameters with a 400 naming the field', async () => {
    const cases: Array<[string, string, string]> = [
      ['limit=0', 'limit', 'limit must not be less than 1'],
      ['limit=501', 'limit', 'limit must not be greater than 500'],
      ['limit=x', 'limit', 'limit must be an integer number'],
      ['offset=-1', 'offset', 'offset must not be less than 0'],
      ['order=up', 'order', 'order must be one of the following values: asc, desc'],
      ['rankOrder=top', 'rankOrder', 'rankOrder must be one of the following values: asc, desc'],
      [
        'orderBy=spotAmountUsd',
        'orderBy',
        'orderBy must be one of the following values: totalAmount, spotAmount, stakedAmount, totalAmountUsd, accountValue',
      ],
      [
        'rankBy=rank',
        'rankBy',
        'rankBy must be one of the following values: totalAmount, spotAmount, stakedAmount, totalAmountUsd, accountValue',
      ],
      ['coin=HYPE', 'coin', 'property coin should not exist'],
    ];
    for (const [query, field, message] of cases) {
      const res = await get(`${HOLDERS}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest(field, message));
    }
  });

  it('reads HYPE_CIRCULATING_SUPPLY as a positive decimal with a default', () => {
    expect(loadConfig({}).HYPE_CIRCULATING_SUPPLY).toBe('333928180');
    expect(loadConfig({ HYPE_CIRCULATING_SUPPLY: '400000000.5' }).HYPE_CIRCULATING_SUPPLY).toBe('400000000.5');
    for (const bad of ['0', '-5', 'lots', '1e9']) expect(() => loadConfig({ HYPE_CIRCULATING_SUPPLY: bad })).toThrow(ConfigError);
  });
});
