import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiHarness } from '../support/api-harness.js';
import { favorite, WALLET, badRequest, type Consumer, startAccountApi, favoriteRequests } from '../support/favorites.fixture.js';

describe('account routes: favourites, wallet profile, cohort summary', () => {
  let api: ApiHarness;
  let one: Consumer;
  const { put, del, list } = favoriteRequests(() => ({ api, one }));

  beforeAll(async () => {
    ({ api, one } = await startAccountApi());
  });
  afterAll(async () => {
    await api?.close();
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
});
