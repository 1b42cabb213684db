import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { FavoritesWriter, MarketStateWriter } from '#market';
import { address, exchangeState, positionState, startedWriter, walletState } from '#testing';
import { ApiHarness } from '../support/api-harness.js';

const FAVORITES = '/api/favorites/accounts';
const favorite = (wallet: string) => `${FAVORITES}/${wallet}`;
const WALLET = (wallet: string) => `/api/wallets/${wallet}`;
const T1 = Date.UTC(2026, 6, 1, 12, 0);
const T2 = T1 + 15 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

// A: a Dolphin (20000 of perp equity) and Consistent Grinder (50000 PnL) with 5 spot HYPE at 40. At T1 it holds SOL and ETH;
// at T2 SOL is gone (closed) and BTC is new.
const A = address(0xa1);
const B = address(0xb2); // Fish (300), Exit Liquidity (-500), no position
const C = address(0xc3); // Shrimp (100), Humble Earner (0), no position
const UNKNOWN = address(0xdead);
/** Wallets only the cap test favours. */
const MANY = Array.from({ length: 1001 }, (_, i) => address(0x10000 + i));

// Short 4 ETH from 50 at 55 (value 220), liquidation 60: progress (50 - 55) / (50 - 60) = 0.5. Long 2 BTC from 100 at 90, liquidation 50: 0.2.
const ETH = positionState('ETH', {
  szi: '-4',
  entryPx: '50',
  positionValue: '220',
  unrealizedPnl: '-20',
  liquidationPx: '60',
  fundingSinceOpen: '1.5',
});
const BTC = positionState('BTC', {
  szi: '2',
  entryPx: '100',
  positionValue: '180',
  unrealizedPnl: '-20',
  liquidationPx: '50',
  leverage: 10,
  marginUsed: '18',
});
const SOL = positionState('SOL', { szi: '10', entryPx: '20', positionValue: '200' });

async function seed(dataSource: DataSource): Promise<void> {
  const states = await startedWriter(dataSource, MarketStateWriter);
  const a = (positions: ReturnType<typeof positionState>[]) =>
    walletState(A, { perpEquity: '20000', allTimePnl: '50000', spotHype: '5', positions });
  await states.apply(exchangeState(1, T1, [a([SOL, ETH])]));
  await states.apply(
    exchangeState(2, T2, [
      a([ETH, BTC]),
      walletState(B, { perpEquity: '300', allTimePnl: '-500' }),
      walletState(C, { perpEquity: '100', allTimePnl: '0' }),
      ...MANY.map((m) => walletState(m)),
    ]),
  );
}

/** The wallet profiles, worked out by hand from the seed. */
const profile = (wallet: string, favoriteCount: number) =>
  ({
    [A]: {
      xUserId: null,
      displayName: null,
      emoji: null,
      verified: false,
      segments: [2, 10],
      address: A,
      favoriteCount,
      totalEquity: 20200,
      earliestActivityAt: iso(T1),
      perpPnl: 50000,
      perpEquity: 20000,
      // (180 + 220) / 20000 and (180 - 220) / 20000.
      exposureRatio: 0.02,
      perpBias: -0.002,
      openValue: 400,
      sumUpnl: -40,
      vault: null,
      closestLiq: { coin: 'ETH', progress: 0.5 },
    },
    [B]: {
      xUserId: null,
      displayName: null,
      emoji: null,
      verified: false,
      segments: [1, 12],
      address: B,
      favoriteCount,
      totalEquity: 300,
      earliestActivityAt: iso(T2),
      perpPnl: -500,
      perpEquity: 300,
      exposureRatio: null,
      perpBias: null,
      openValue: 0,
      sumUpnl: 0,
      vault: null,
      closestLiq: { coin: null, progress: null },
    },
    [C]: {
      xUserId: null,
      displayName: null,
      emoji: null,
      verified: false,
      segments: [16, 11],
      address: C,
      favoriteCount,
      totalEquity: 100,
      earliestActivityAt: iso(T2),
      perpPnl: 0,
      perpEquity: 100,
      exposureRatio: null,
      perpBias: null,
      openValue: 0,
      sumUpnl: 0,
      vault: null,
      closestLiq: { coin: null, progress: null },
    },
  })[wallet];

const badRequest = (field: string, message: string) => ({
  status: 'error',
  message: `Invalid parameters: ${field}`,
  errors: [{ field, message }],
});
const ADDRESS_MESSAGE = 'address must be 0x followed by 40 hex digits';

describe('account routes: favourites, wallet profile, cohort summary', () => {
  let api: ApiHarness;
  let dataSource: DataSource;
  let one: { consumerId: number; token: string };
  let two: { consumerId: number; token: string };

  const put = (path: string, token?: string) => (token ? api.http.put(path).set('Authorization', `Bearer ${token}`) : api.http.put(path));
  const del = (path: string, token?: string) =>
    token ? api.http.delete(path).set('Authorization', `Bearer ${token}`) : api.http.delete(path);
  const list = async (token: string) => {
    const res = await api.get(FAVORITES, token);
    expect(res.status).toBe(200);
    return res.body.data as Array<{ address: string; createdAt: string; wallet: { favoriteCount: number } }>;
  };
  const countOf = async (wallet: string) =>
    (await api.get(`/api/external/wallets?address=${wallet}`, one.token)).body.items[0].favoriteCount;

  beforeAll(async () => {
    api = await ApiHarness.start();
    one = await api.createConsumer({ name: 'favorites-one' });
    two = await api.createConsumer({ name: 'favorites-two' });
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
    await seed(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
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

  describe('GET /api/segments/{segmentId}/summary', () => {
    it('gives the body of GET /api/external/segments/{segmentId}/summary', async () => {
      for (const id of [1, 2, 10, 12, 16]) {
        for (const query of ['', '?positionAge=all', '?positionAge=24h', '?positionAge=30d']) {
          const res = await api.get(`/api/segments/${id}/summary${query}`, one.token);
          const external = await api.get(`/api/external/segments/${id}/summary${query}`, one.token);
          expect([id, query, res.status]).toEqual([id, query, 200]);
          expect([id, query, res.body]).toEqual([id, query, external.body]);
        }
      }
      // The Dolphins: A alone, with its two open positions.
      expect((await api.get('/api/segments/2/summary', one.token)).body.summary).toEqual({
        segmentId: 2,
        countTradersInPosition: 1,
        perpBias: -0.002,
        positionValue: 400,
        positionLongValue: 180,
        positionShortValue: 220,
        exposureRatio: 0.02,
        activePerpEquity: 20000,
      });
    });

    it('answers the same 404 and 400s', async () => {
      const missing = await api.get('/api/segments/17/summary', one.token);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ status: 'error', message: 'Unknown segmentId: 17 (cohorts are 1 to 16)' });
      const badId = await api.get('/api/segments/abc/summary', one.token);
      expect(badId.status).toBe(400);
      expect(badId.body).toEqual(badRequest('segmentId', 'segmentId must be an integer number'));
      const badAge = await api.get('/api/segments/2/summary?positionAge=1h', one.token);
      expect(badAge.status).toBe(400);
      expect(badAge.body).toEqual(badRequest('positionAge', 'positionAge must be one of the following values: all, 24h, 7d, 30d'));
    });
  });

  it('answers hostile path values with a 400 naming address or segmentId (or a 404 for an unknown one), never a 5xx', async () => {
    const { token } = await api.createConsumer({ name: 'favorites-hostile', rateLimitPerMinute: 100_000 });
    const hostile = [
      ' ',
      '0',
      '-1',
      '17',
      '1e309',
      'NaN',
      'null',
      '[]',
      `0x${'a'.repeat(40)}`,
      `0x${'A'.repeat(39)}`,
      "'; DROP TABLE wallets; --",
      '%00',
      '\u0000',
      '9'.repeat(400),
      '🐋',
      '..',
    ];
    for (const value of hostile) {
      const path = encodeURIComponent(value);
      const calls = {
        get: await api.get(WALLET(path), token),
        put: await put(favorite(path), token),
        delete: await del(favorite(path), token),
        summary: await api.get(`/api/segments/${path}/summary`, token),
      };
      for (const [call, res] of Object.entries(calls)) {
        expect([value, call, [200, 204, 400, 404].includes(res.status)]).toEqual([value, call, true]);
        if (res.status === 400)
          expect(res.body).toEqual({
            status: 'error',
            message: expect.any(String),
            errors: [{ field: expect.stringMatching(/^(address|segmentId)$/), message: expect.any(String) }],
          });
        if (res.status === 404) expect(res.body).toEqual({ status: 'error', message: expect.any(String) });
      }
    }
    expect(await list(token)).toEqual([]);
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
