import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FavoritesWriter } from '#market';
import { ApiHarness } from '../support/api-harness.js';
import {
  FAVORITES,
  favorite,
  WALLET,
  T1,
  T2,
  iso,
  A,
  B,
  C,
  UNKNOWN,
  MANY,
  profile,
  badRequest,
  ADDRESS_MESSAGE,
  type Consumer,
  startAccountApi,
  favoriteRequests,
} from '../support/favorites.fixture.js';

describe('account routes: favourites, wallet profile, cohort summary', () => {
  let api: ApiHarness;
  let one: Consumer;
  let two: Consumer;
  const { put, del, list, countOf } = favoriteRequests(() => ({ api, one }));

  beforeAll(async () => {
    ({ api, one, two } = await startAccountApi());
  });
  afterAll(async () => {
    await api?.close();
  });

  it('documents every route in the OpenAPI document', async () => {
    const doc = (await api.http.get('/docs-json')).body;
    expect(Object.keys(doc.paths[FAVORITES])).toEqual(['get']);
    expect(Object.keys(doc.paths[`${FAVORITES}/{address}`]).sort()).toEqual(['delete', 'put']);
    expect(Object.keys(doc.paths[`${FAVORITES}/{address}`].put.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    expect(Object.keys(doc.paths[`${FAVORITES}/{address}`].delete.responses)).toEqual(expect.arrayContaining(['204', '400', '401']));
    expect(doc.paths['/api/wallets/{address}'].get.parameters).toEqual([
      expect.objectContaining({ name: 'address', in: 'path', required: true }),
    ]);
    expect(doc.paths['/api/segments/{segmentId}/summary'].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      'segmentId',
      'positionAge',
    ]);
  });

  describe('favourites', () => {
    it('start empty', async () => {
      const res = await api.get(FAVORITES, one.token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', data: [] });
      expect(await list(two.token)).toEqual([]);
    });

    it('adds a wallet: 200 with the favourite, its profile counting it', async () => {
      const before = Date.now();
      const res = await put(favorite(A), one.token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', data: { address: A, createdAt: expect.any(String), wallet: profile(A, 1) } });
      const createdAt = Date.parse(res.body.data.createdAt);
      expect(res.body.data.createdAt).toBe(iso(createdAt));
      expect(createdAt).toBeGreaterThanOrEqual(before - 1000);
      expect(createdAt).toBeLessThanOrEqual(Date.now() + 1000);
    });

    it('adding it again, in any case, changes nothing (idempotent, first createdAt kept)', async () => {
      const [first] = await list(one.token);
      const res = await put(favorite(`0x${A.slice(2).toUpperCase()}`), one.token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', data: first });
      expect(res.body.data.wallet.favoriteCount).toBe(1);
      expect(await list(one.token)).toEqual([first]);
    });

    it('lists the newest first, each with its wallet profile', async () => {
      expect((await put(favorite(B), one.token)).status).toBe(200);
      expect((await put(favorite(C), one.token)).status).toBe(200);
      const favorites = await list(one.token);
      expect(favorites.map((f) => f.address)).toEqual([C, B, A]);
      expect(favorites.map((f) => f.wallet)).toEqual([profile(C, 1), profile(B, 1), profile(A, 1)]);
      const times = favorites.map((f) => Date.parse(f.createdAt));
      expect(times[0]).toBeGreaterThanOrEqual(times[1]!);
      expect(times[1]).toBeGreaterThanOrEqual(times[2]!);
    });

    it('keeps each consumer to its own, and counts every consumer in favoriteCount', async () => {
      expect((await put(favorite(A), two.token)).body.data.wallet).toEqual(profile(A, 2));
      expect((await list(two.token)).map((f) => [f.address, f.wallet.favoriteCount])).toEqual([[A, 2]]);
      expect((await list(one.token)).map((f) => [f.address, f.wallet.favoriteCount])).toEqual([
        [C, 1],
        [B, 1],
        [A, 2],
      ]);
      // The other wallet routes read the same count.
      expect(await countOf(A)).toBe(2);
      expect(await countOf(B)).toBe(1);
      expect(await countOf(MANY[0]!)).toBe(0);
      expect((await api.get(WALLET(A), two.token)).body.data).toMatchObject({ wallet: { favoriteCount: 2 }, isFavorite: true });
      expect((await api.get(WALLET(B), two.token)).body.data).toMatchObject({ wallet: { favoriteCount: 1 }, isFavorite: false });
      expect((await api.get(WALLET(B), one.token)).body.data).toMatchObject({ isFavorite: true });
    });

    it('removes a wallet: 204, idempotent, uncounted once', async () => {
      const res = await del(favorite(A), one.token);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await del(favorite(A.toUpperCase().replace('0X', '0x')), one.token)).status).toBe(204);
      expect((await list(one.token)).map((f) => f.address)).toEqual([C, B]);
      expect(await countOf(A)).toBe(1);
      // Removing what another consumer favours, or what it never added, touches nobody else's.
      expect((await del(favorite(B), two.token)).status).toBe(204);
      expect(await countOf(B)).toBe(1);
      expect((await list(two.token)).map((f) => [f.address, f.wallet.favoriteCount])).toEqual([[A, 1]]);
      expect((await api.get(WALLET(A), one.token)).body.data.isFavorite).toBe(false);
    });

    it('adds a removed wallet again as a new favourite, newest', async () => {
      expect((await put(favorite(A), one.token)).body.data.wallet.favoriteCount).toBe(2);
      expect((await list(one.token)).map((f) => f.address)).toEqual([A, C, B]);
    });

    it('refuses a wallet the service has not seen with a 404, and removes one as a no-op', async () => {
      const res = await put(favorite(UNKNOWN), one.token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', message: `Unknown wallet: ${UNKNOWN}` });
      expect((await list(one.token)).map((f) => f.address)).toEqual([A, C, B]);
      expect((await del(favorite(UNKNOWN), one.token)).status).toBe(204);
    });

    it.each([
      ['0x123', ADDRESS_MESSAGE],
      [`${A}0`, ADDRESS_MESSAGE],
      [`0x${'g'.repeat(40)}`, ADDRESS_MESSAGE],
      ['wallet', ADDRESS_MESSAGE],
    ])('answers a PUT or DELETE of %s with a 400 naming address', async (wallet, message) => {
      for (const call of [put(favorite(wallet), one.token), del(favorite(wallet), one.token)]) {
        const res = await call;
        expect(res.status).toBe(400);
        expect(res.body).toEqual(badRequest('address', message));
      }
    });

    it('takes no query fields', async () => {
      for (const res of [
        await api.get(`${FAVORITES}?limit=5`, one.token),
        await put(`${favorite(B)}?limit=5`, one.token),
        await del(`${favorite(B)}?limit=5`, one.token),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual(badRequest('limit', 'property limit should not exist'));
      }
    });

    it(`keeps at most 1000 per consumer`, async () => {
      const third = await api.createConsumer({ name: 'favorites-three' });
      const favorites = api.app.get(FavoritesWriter);
      for (const wallet of MANY.slice(0, 1000)) await favorites.add(third.consumerId, wallet);
      const res = await put(favorite(MANY[1000]!), third.token);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest('address', 'a consumer keeps at most 1000 favourite accounts: remove one first'));
      // At the cap, adding one already there is still fine; after a removal there is room for one more.
      expect((await put(favorite(MANY[0]!), third.token)).status).toBe(200);
      expect((await del(favorite(MANY[0]!), third.token)).status).toBe(204);
      expect((await put(favorite(MANY[1000]!), third.token)).status).toBe(200);
      const all = await list(third.token);
      expect(all).toHaveLength(1000);
      expect(all[0]!.address).toBe(MANY[1000]);
      expect(new Set(all.map((f) => f.address)).size).toBe(1000);
      expect(await countOf(MANY[0]!)).toBe(0);
      expect(await countOf(MANY[1000]!)).toBe(1);
    });
  });

  describe('GET /api/wallets/{address}', () => {
    it("gives the wallet's profile, its two cohorts and its open positions (the positions route's records)", async () => {
      const res = await api.get(WALLET(A), two.token);
      expect(res.status).toBe(200);
      const position = (coin: string, fields: object) => ({
        id: expect.any(Number),
        address: A,
        coin,
        dex: 'main',
        closeTime: null,
        updatedAt: iso(T2),
        leverageType: 'cross',
        ...fields,
      });
      expect(res.body).toEqual({
        status: 'success',
        data: {
          wallet: profile(A, 2),
          segments: [
            { id: 2, name: 'Dolphin', category: 'size', criteria: { minSize: 10000, maxSize: 50000 }, emoji: '🐬' },
            { id: 10, name: 'Consistent Grinder', category: 'pnl', criteria: { minPnl: 10000, maxPnl: 100000 }, emoji: '⚙️' },
          ],
          // Newest openTime first: BTC first seen at T2, ETH at T1; SOL closed at T2 is not open.
          positions: [
            position('BTC', {
              side: 'long',
              size: 2,
              value: 180,
              entryPrice: 100,
              unrealizedPnl: -20,
              funding: 0,
              liquidationPrice: 50,
              liquidationProgress: 0.2,
              leverage: 10,
              marginUsed: 18,
              openTime: iso(T2),
              createdAt: iso(T2),
            }),
            position('ETH', {
              side: 'short',
              size: 4,
              value: 220,
              entryPrice: 50,
              unrealizedPnl: -20,
              funding: 1.5,
              liquidationPrice: 60,
              liquidationProgress: 0.5,
              leverage: 5,
              marginUsed: 20,
              openTime: iso(T1),
              createdAt: iso(T1),
            }),
          ],
          isFavorite: true,
        },
      });
      const route = await api.get(
        `/api/external/positions?address=${A}&open=true&start=2026-01-01T00:00:00Z&end=2026-12-31T00:00:00Z`,
        two.token,
      );
      expect(res.body.data.positions).toEqual(route.body.positions);
    });

    it('takes the address in any case, and gives a wallet without positions an empty list', async () => {
      const res = await api.get(WALLET(`0x${B.slice(2).toUpperCase()}`), one.token);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        wallet: profile(B, 1),
        segments: [
          { id: 1, name: 'Fish', category: 'size', criteria: { minSize: 250, maxSize: 10000 }, emoji: '🐟' },
          { id: 12, name: 'Exit Liquidity', category: 'pnl', criteria: { minPnl: -10000, maxPnl: 0 }, emoji: '💧' },
        ],
        positions: [],
        isFavorite: true,
      });
    });

    it('answers a wallet the service has not seen with a 404', async () => {
      const res = await api.get(WALLET(UNKNOWN), one.token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', message: `Unknown wallet: ${UNKNOWN}` });
    });

    it.each([
      [WALLET('0x123'), 'address', ADDRESS_MESSAGE],
      [WALLET(`${A}ff`), 'address', ADDRESS_MESSAGE],
      [`${WALLET(A)}?open=true`, 'open', 'property open should not exist'],
    ])('answers %s with a 400 naming %s', async (path, field, message) => {
      const res = await api.get(path, one.token);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest(field, message));
    });
  });

  it('needs a token on every account route', async () => {
    for (const res of [
      await api.get(FAVORITES),
      await put(favorite(A)),
      await del(favorite(A)),
      await api.get(WALLET(A)),
      await api.get('/api/segments/2/summary'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', message: 'Unauthorized' });
    }
    // Nothing changed without one.
    expect(await countOf(A)).toBe(2);
  });
});
