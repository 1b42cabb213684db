import { beforeAll, describe, expect, it } from '@jest/globals';
import { address } from '#testing';
import {
  WALLETS,
  type SeedWallet,
  SEED,
  seed,
  SIZE_COHORTS,
  PNL_COHORTS,
  cohortOf,
  ORDER_FIELDS,
  expectedList,
  HOSTILE,
  badRequest,
  useWalletsSuite,
} from '../support/wallets.fixture.js';

describe('GET /api/external/wallets', () => {
  const { suite, get, walk } = useWalletsSuite();

  describe('over seeded state updates', () => {
    beforeAll(async () => {
      await seed(suite.dataSource);
    });

    describe('segmentIds', () => {
      const inCohorts = (ids: number[]) => (w: SeedWallet) =>
        ids.includes(cohortOf(SIZE_COHORTS, w.perpEquity)) || ids.includes(cohortOf(PNL_COHORTS, w.allTimePnl));

      it.each([
        ['segmentIds=2&segmentIds=15', [2, 15]],
        ['segmentIds=2,15', [2, 15]],
        ['segmentIds=2,15&segmentIds=15', [2, 15]],
        ['segmentIds=16', [16]],
        ['segmentIds=9', [9]],
        ['segmentIds=1,11', [1, 11]],
      ])('keeps the wallets whose size or pnl cohort is listed: %s', async (query, ids) => {
        const want = expectedList('perpPnl', 'asc', inCohorts(ids));
        expect(want.length).toBeGreaterThan(2);
        const { totalCount, items } = await walk(`${query}&orderBy=perpPnl&order=asc`, 2);
        expect(totalCount).toBe(want.length);
        expect(items).toEqual(want);
      });

      it('matches a size cohort and a pnl cohort alike, and none when no wallet is in it', async () => {
        // Dolphins (size 2) are the 20000.5 wallets; Giga-Rekt (pnl 15) the -2000000 ones; nobody is a Leviathan (7) or Semi-Rekt (13).
        expect((await get('?segmentIds=2')).body.totalCount).toBe(SEED.filter((w) => w.perpEquity === '20000.5').length);
        expect((await get('?segmentIds=15')).body.totalCount).toBe(SEED.filter((w) => w.allTimePnl === '-2000000').length);
        expect((await get('?segmentIds=7,13')).body).toEqual({ totalCount: 0, items: [] });
      });
    });

    it('filters by hasOpenPositions', async () => {
      const open = await walk('hasOpenPositions=true&orderBy=countOpenPositions&order=desc', 5);
      expect(open.items).toEqual(expectedList('countOpenPositions', 'desc', (w) => w.positions.length > 0));
      expect(open.totalCount).toBe(25);
      const flat = await walk('hasOpenPositions=false&orderBy=address&order=asc', 5);
      expect(flat.items).toEqual(expectedList('address', 'asc', (w) => w.positions.length === 0));
      expect(flat.totalCount).toBe(11);
    });

    it('finds one wallet by address in any case, and none for a wallet never seen', async () => {
      const w = SEED[10]!;
      const want = { totalCount: 1, items: expectedList('address', 'asc', (s) => s === w) };
      expect((await get(`?address=${w.address}`)).body).toEqual(want);
      expect((await get(`?address=0x${w.address.slice(2).toUpperCase()}`)).body).toEqual(want);
      expect((await get(`?address=${address(0xdead)}`)).body).toEqual({ totalCount: 0, items: [] });
    });

    it('combines the filters with AND', async () => {
      const keep = (w: SeedWallet) =>
        w.positions.length > 0 && (cohortOf(SIZE_COHORTS, w.perpEquity) === 1 || cohortOf(PNL_COHORTS, w.allTimePnl) === 1);
      const res = await get('?segmentIds=1&hasOpenPositions=true&orderBy=sumUpnl&order=asc');
      expect(res.body).toEqual({ totalCount: SEED.filter(keep).length, items: expectedList('sumUpnl', 'asc', keep) });
      const w = SEED.find((s) => s.positions.length === 0 && cohortOf(SIZE_COHORTS, s.perpEquity) === 1)!;
      expect((await get(`?address=${w.address}&segmentIds=1`)).body.totalCount).toBe(1);
      expect((await get(`?address=${w.address}&segmentIds=1&hasOpenPositions=true`)).body).toEqual({ totalCount: 0, items: [] });
    });

    it.each([
      ['segmentIds=17', 'segmentIds', 'each segmentIds value must be a cohort id from 1 to 16'],
      ['segmentIds=4,17', 'segmentIds', 'each segmentIds value must be a cohort id from 1 to 16'],
      ['segmentIds=4&segmentIds=0', 'segmentIds', 'each segmentIds value must be a cohort id from 1 to 16'],
      ['segmentIds=abc', 'segmentIds', 'each segmentIds value must be a cohort id from 1 to 16'],
      ['segmentIds=4.0', 'segmentIds', 'each segmentIds value must be a cohort id from 1 to 16'],
      ['segmentIds=', 'segmentIds', 'each segmentIds value must be a cohort id from 1 to 16'],
      [`segmentIds=${Array.from({ length: 17 }, () => '1').join(',')}`, 'segmentIds', 'segmentIds must name at most 16 cohorts'],
      ['limit=0', 'limit', 'limit must not be less than 1'],
      ['limit=501', 'limit', 'limit must not be greater than 500'],
      ['limit=ten', 'limit', 'limit must be an integer number'],
      ['offset=-1', 'offset', 'offset must not be less than 0'],
      ['offset=1.5', 'offset', 'offset must be an integer number'],
      ['offset=10000001', 'offset', 'offset must not be greater than 10000000'],
      ['order=up', 'order', 'order must be one of the following values: asc, desc'],
      ['order=DESC', 'order', 'order must be one of the following values: asc, desc'],
      ['orderBy=favoriteCount', 'orderBy', `orderBy must be one of the following values: ${ORDER_FIELDS.join(', ')}`],
      ['hasOpenPositions=yes', 'hasOpenPositions', 'hasOpenPositions must be true or false'],
      ['hasOpenPositions=1', 'hasOpenPositions', 'hasOpenPositions must be true or false'],
      ['address=0x123', 'address', 'address must be 0x followed by 40 hex digits'],
      [`address=${address(1)}0`, 'address', 'address must be 0x followed by 40 hex digits'],
      ['address=', 'address', 'address must be 0x followed by 40 hex digits'],
      ['segmentId=4', 'segmentId', 'property segmentId should not exist'],
    ])('answers ?%s with a 400 naming %s', async (query, field, message) => {
      const res = await get(`?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest(field, message));
    });

    it('answers hostile values of every field with a 200 or a 400 naming a field, never a 5xx', async () => {
      const { token: fuzz } = await suite.api.createConsumer({ name: 'wallets-hostile', rateLimitPerMinute: 100_000 });
      const fields = [
        'offset',
        'limit',
        'order',
        'orderBy',
        'segmentIds',
        'hasOpenPositions',
        'address',
        'segmentIds[]',
        'segmentIds[a]',
        'nextCursor',
      ];
      for (const field of fields) {
        for (const value of HOSTILE) {
          const res = await suite.api.get(
            `${WALLETS}?${new URLSearchParams([
              [field, value],
              [field, value],
            ]).toString()}`,
            fuzz,
          );
          expect([field, value, [200, 400].includes(res.status)]).toEqual([field, value, true]);
          if (res.status === 400)
            expect(res.body).toEqual({
              status: 'error',
              message: expect.stringMatching(/^Invalid parameters: /),
              errors: [expect.objectContaining({ field: expect.any(String) })],
            });
        }
      }
    });

    it('needs a token', async () => {
      const res = await suite.api.get(WALLETS);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', message: 'Unauthorized' });
    });
  });
});
