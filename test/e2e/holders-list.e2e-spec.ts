import { describe, expect, it } from '@jest/globals';
import { HOLDERS, DAY, iso, UPDATES, K, SUPPLY, H, WALLETS, HOLDERS_EXPECTED, expected, seedHolders } from '../support/holders.fixture.js';
import { useSeededApi } from '../support/seeded-api.js';

describe('HYPE holders', () => {
  const suite = useSeededApi({ name: 'holders-suite' }, seedHolders, { HYPE_CIRCULATING_SUPPLY: SUPPLY });
  const { get } = suite;

  it('seeds 505 holders over more than 30 days, 12 wallets without HYPE', () => {
    expect(UPDATES[K - 1]! - UPDATES[0]!).toBeGreaterThan(30 * DAY);
    expect(HOLDERS_EXPECTED).toHaveLength(505);
    expect(WALLETS.length - HOLDERS_EXPECTED.length).toBe(12);
  });

  it('answers the first 500 holders by total amount by default, then the rest', async () => {
    const all = expected();
    const first = await get(HOLDERS);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ items: all.slice(0, 500), totalCount: 505 });
    expect((await get(`${HOLDERS}?offset=500`)).body).toEqual({ items: all.slice(500), totalCount: 505 });
    expect((await get(`${HOLDERS}?limit=500&order=desc&orderBy=totalAmount&rankBy=totalAmount&rankOrder=desc`)).body).toEqual(first.body);
    expect((await get(`${HOLDERS}?offset=600`)).body).toEqual({ items: [], totalCount: 505 });
  });

  it('shows the hand-made wallets as worked out by hand', async () => {
    const items = [...(await get(HOLDERS)).body.items, ...(await get(`${HOLDERS}?offset=500`)).body.items] as Array<
      Record<string, unknown> & { address: string }
    >;
    expect(items).toHaveLength(505);
    const byAddress = new Map(items.map((h) => [h.address, h]));
    // Not holders: sold everything, never held.
    expect(byAddress.has(H(5)) || byAddress.has(H(6))).toBe(false);
    // H3 stakes 3000, the most of all: rank 1. HYPE at the last update: 30 + 10 * 1.25 = 42.5.
    expect(items[0]).toMatchObject({
      address: H(3),
      rank: 1,
      spotAmount: 0,
      stakedAmount: 3000,
      totalAmount: 3000,
      totalAmountUsd: 127_500,
      accountValue: 50,
    });
    // 3000 * 100 / 1234567.5: 1234567.5 * 0.243 = 299999.9025, and 0.0975 / 1234567.5 = 0.0000000789..., so 0.2430000789... -> 0.24300008.
    expect(items[0]!.percentOfCirculatingSupply).toBe(0.24300008);
    expect(byAddress.get(H(1))).toMatchObject({
      spotAmount: 1000,
      spotAmountUsd: 42_500,
      totalAmountUsd: 42_500,
      accountValue: 360,
      wallet: expect.objectContaining({
        totalEquity: 42_860,
        exposureRatio: 0.25,
        perpBias: 0.25,
        openValue: 90,
        sumUpnl: -10,
        closestLiq: { coin: 'BTC', progress: 0.25 },
        segments: [1, 11],
      }),
      // One row, at the first update (HYPE at 30).
      history: {
        '24h': {
          id: `${H(1)}:${UPDATES[0]}`,
          address: H(1),
          spotAmount: 1000,
          spotAmountUsd: 30_000,
          stakedAmount: 0,
          stakedAmountUsd: 0,
          totalAmount: 1000,
          totalAmountUsd: 30_000,
          createdAt: iso(UPDATES[0]!),
        },
        '7d': {
          id: `${H(1)}:${UPDATES[0]}`,
          address: H(1),
          spotAmount: 1000,
          spotAmountUsd: 30_000,
          stakedAmount: 0,
          stakedAmountUsd: 0,
          totalAmount: 1000,
          totalAmountUsd: 30_000,
          createdAt: iso(UPDATES[0]!),
        },
      },
    });
    // H2: 24h back is the row of update 5 (HYPE 36.25); 7 days back the row of update 2, which had no HYPE price.
    expect(byAddress.get(H(2))!.history).toEqual({
      '24h': {
        id: `${H(2)}:${UPDATES[5]}`,
        address: H(2),
        spotAmount: 650.5,
        spotAmountUsd: 23_580.625,
        stakedAmount: 200,
        stakedAmountUsd: 7250,
        totalAmount: 850.5,
        totalAmountUsd: 30_830.625,
        createdAt: iso(UPDATES[5]!),
      },
      '7d': {
        id: `${H(2)}:${UPDATES[2]}`,
        address: H(2),
        spotAmount: 800,
        spotAmountUsd: 0,
        stakedAmount: 200,
        stakedAmountUsd: 0,
        totalAmount: 1000,
        totalAmountUsd: 0,
        createdAt: iso(UPDATES[2]!),
      },
    });
    // H4 bought 6 hours ago: nothing before. H7's sale exactly 7 days back is its row then, and still 24 hours back.
    expect(byAddress.get(H(4))!.history).toEqual({ '24h': null, '7d': null });
    const sold = {
      id: `${H(7)}:${UPDATES[3]}`,
      address: H(7),
      spotAmount: 0,
      spotAmountUsd: 0,
      stakedAmount: 0,
      stakedAmountUsd: 0,
      totalAmount: 0,
      totalAmountUsd: 0,
      createdAt: iso(UPDATES[3]!),
    };
    expect(byAddress.get(H(7))!.history).toEqual({ '24h': sold, '7d': sold });
  });
});
