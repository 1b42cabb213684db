import { beforeAll, describe, expect, it } from '@jest/globals';
import {
  WALLETS,
  BTC_NEAR,
  ETH_HALF,
  ETH_FIFTH,
  SEED,
  seed,
  EXPECTED,
  ORDER_FIELDS,
  expectedList,
  useWalletsSuite,
} from '../support/wallets.fixture.js';

describe('GET /api/external/wallets', () => {
  const { suite, get, walk } = useWalletsSuite();

  it('documents the parameters, the default sort and the tiebreak in the OpenAPI document', async () => {
    const doc = (await suite.api.http.get('/docs-json')).body;
    const route = doc.paths[WALLETS].get;
    const param = (name: string) => route.parameters.find((p: { name: string }) => p.name === name);
    expect(route.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'address',
      'hasOpenPositions',
      'limit',
      'offset',
      'order',
      'orderBy',
      'segmentIds',
    ]);
    expect(param('orderBy').schema).toMatchObject({ enum: ORDER_FIELDS, default: 'totalEquity' });
    expect(param('orderBy').description).toContain('then by address in the same direction');
    expect(param('orderBy').description).toContain('come last in both directions');
    expect(param('order').schema).toMatchObject({ enum: ['asc', 'desc'], default: 'desc' });
    expect(param('limit').schema).toMatchObject({ minimum: 1, maximum: 500, default: 500 });
    expect(param('segmentIds').description).toContain('segmentIds=4&segmentIds=5');
    expect(Object.keys(doc.components.schemas.WalletProfileDto.properties)).toEqual([
      'xUserId',
      'displayName',
      'emoji',
      'verified',
      'segments',
      'address',
      'favoriteCount',
      'totalEquity',
      'earliestActivityAt',
      'perpPnl',
      'perpEquity',
      'exposureRatio',
      'perpBias',
      'openValue',
      'sumUpnl',
      'vault',
      'closestLiq',
    ]);
  });

  it('lists nothing before any state update', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ totalCount: 0, items: [] });
  });

  describe('over seeded state updates', () => {
    beforeAll(async () => {
      await seed(suite.dataSource);
    });

    it('gives every wallet profile exactly, by totalEquity descending by default', async () => {
      const res = await get();
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual({ totalCount: 36, items: expectedList('totalEquity', 'desc') });
      expect((await get('?orderBy=totalEquity&order=desc&offset=0&limit=500')).body).toEqual(res.body);
    });

    it('works the profile out of the state as the API contract defines it', async () => {
      const one = (i: number) => get(`?address=${SEED[i]!.address}`).then((r) => r.body.items[0]);
      // i = 16: 20000.5 of perp equity (Dolphin), -500 PnL (Exit Liquidity), 10 spot HYPE at 40, first shown by the second update;
      // long BTC 180 (progress 0.2) and short ETH 220 (progress 0.5).
      expect(SEED[16]!.positions).toEqual([BTC_NEAR, ETH_HALF]);
      expect(await one(16)).toEqual({
        xUserId: null,
        displayName: null,
        emoji: null,
        verified: false,
        segments: [2, 12],
        address: SEED[16]!.address,
        favoriteCount: 0,
        totalEquity: 20400.5,
        earliestActivityAt: '2026-06-01T00:15:00.000Z',
        perpPnl: -500,
        perpEquity: 20000.5,
        // 400 / 20000.5 = 0.0199995000125 and -40 / 20000.5, to 8 places.
        exposureRatio: 0.0199995,
        perpBias: -0.00199995,
        openValue: 400,
        sumUpnl: -40,
        vault: null,
        closestLiq: { coin: 'ETH', progress: 0.5 },
      });
      // i = 9: -50 of perp equity (Shrimp) with positions: no ratios; 2.5 staked HYPE at 40 make the total 50.
      expect(await one(9)).toMatchObject({
        segments: [16, 15],
        totalEquity: 50,
        perpEquity: -50,
        exposureRatio: null,
        perpBias: null,
        openValue: 440,
        closestLiq: { coin: 'ETH', progress: 0.5 },
      });
      // i = 19: BTC and ETH both at 0.2: the first coin. (180 - 208) / 250 and 388 / 250.
      expect(SEED[19]!.positions).toEqual([BTC_NEAR, ETH_FIFTH]);
      expect(await one(19)).toMatchObject({
        segments: [1, 15],
        perpBias: -0.112,
        exposureRatio: 1.552,
        closestLiq: { coin: 'BTC', progress: 0.2 },
      });
      // i = 3: a position in profit has progress 0, not none. i = 10: no liquidation price at all; 100 / 20000.5 to 8 places.
      expect(await one(3)).toMatchObject({ closestLiq: { coin: 'BTC', progress: 0 }, exposureRatio: null });
      expect(await one(10)).toMatchObject({ closestLiq: { coin: null, progress: null }, exposureRatio: 0.00499988, perpBias: 0.00499988 });
      // i = 2: 0 of perp equity: no ratios; first shown by the first update. i = 35: no position, first shown by the third.
      expect(await one(2)).toMatchObject({
        segments: [16, 9],
        exposureRatio: null,
        perpBias: null,
        earliestActivityAt: '2026-06-01T00:00:00.000Z',
      });
      expect(await one(35)).toMatchObject({
        segments: [1, 11],
        openValue: 0,
        sumUpnl: 0,
        exposureRatio: null,
        earliestActivityAt: '2026-06-01T00:30:00.000Z',
      });
    });

    it('has ties in every sort field but address', () => {
      for (const field of ORDER_FIELDS.filter((f) => f !== 'address')) {
        const values = EXPECTED.map((e) => String(e.keys[field]));
        expect([field, new Set(values).size < values.length - 10]).toEqual([field, true]);
      }
    });

    for (const orderBy of ORDER_FIELDS) {
      for (const order of ['asc', 'desc'] as const) {
        it(`walks orderBy=${orderBy}&order=${order} page by page, every wallet once, in order`, async () => {
          const { totalCount, items } = await walk(`orderBy=${orderBy}&order=${order}`, 7);
          expect(totalCount).toBe(36);
          expect(new Set(items.map((w) => w.address)).size).toBe(36);
          expect(items).toEqual(expectedList(orderBy, order));
        });
      }
    }

    it('puts wallets without a perpBias, exposureRatio or closestLiqProgress last in both directions', async () => {
      for (const [field, value] of [
        ['perpBias', 'perpBias'],
        ['exposureRatio', 'exposureRatio'],
        ['closestLiqProgress', 'closestLiq'],
      ] as const) {
        for (const order of ['asc', 'desc']) {
          const items = (await get(`?orderBy=${field}&order=${order}`)).body.items as Array<Record<string, unknown>>;
          const isNull = items.map((w) => (value === 'closestLiq' ? (w.closestLiq as { progress: unknown }).progress : w[value]) === null);
          const firstNull = isNull.indexOf(true);
          expect([field, order, firstNull > 0, isNull.slice(firstNull).every(Boolean)]).toEqual([field, order, true, true]);
        }
      }
    });

    it('defaults order to desc and orderBy to totalEquity', async () => {
      expect((await get('?orderBy=perpPnl')).body.items).toEqual(expectedList('perpPnl', 'desc'));
      expect((await get('?order=asc')).body.items).toEqual(expectedList('totalEquity', 'asc'));
    });

    it('gives an empty page past the end, with the count', async () => {
      expect((await get('?offset=36')).body).toEqual({ totalCount: 36, items: [] });
      expect((await get('?offset=10000000&limit=1')).body).toEqual({ totalCount: 36, items: [] });
      expect((await get('?offset=35&limit=500')).body).toEqual({ totalCount: 36, items: expectedList('totalEquity', 'desc').slice(35) });
    });
  });
});
