import { describe, expect, it } from '@jest/globals';
import { address } from '#testing';
import {
  FILLS,
  MIN,
  T,
  iso,
  V1,
  V2,
  V4,
  L1,
  L2,
  V3,
  BUILDER,
  hash,
  t0,
  t1,
  t2,
  t3,
  MAIN,
  LIQUIDATIONS,
  expectedFill,
  expectedList,
  badRequest,
} from '../support/liquidations.fixture.js';
import { seedLiquidations } from '../support/liquidation-positions.fixture.js';
import { useSeededApi } from '../support/seeded-api.js';

describe('Liquidations', () => {
  const suite = useSeededApi({ name: 'liquidations-suite' }, seedLiquidations);
  const { get } = suite;

  describe('GET /api/external/fills/liquidation', () => {
    it('answers the newest page with exactly the contract fields and values', async () => {
      const res = await get(`${FILLS}?limit=3`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        fills: [
          {
            oid: 72006,
            address: L2,
            coin: 'BTC',
            fullCoinName: 'BTC',
            fillType: 'perp',
            px: 61000.5,
            sz: 0.25,
            side: 'B',
            time: '2026-06-28T08:03:00.000Z',
            startPosition: -1.5,
            dir: 'Close Short',
            closedPnl: 12.5,
            hash: hash('f6'),
            crossed: false,
            fee: -0.01,
            builderFee: 0.1,
            tid: 9006,
            feeToken: 'USDC',
            builder: BUILDER,
            liquidatedUser: V1,
            liquidationMarkPx: 60990.1,
            liquidationMethod: 'market',
          },
          {
            oid: 71006,
            address: V1,
            coin: 'BTC',
            fullCoinName: 'BTC',
            fillType: 'perp',
            px: 61000.5,
            sz: 0.25,
            side: 'A',
            time: '2026-06-28T08:03:00.000Z',
            startPosition: 0.25,
            dir: 'Close Long',
            closedPnl: -250.125,
            hash: hash('f6'),
            crossed: true,
            fee: 7.625,
            builderFee: 0,
            tid: 9006,
            feeToken: 'USDC',
            builder: '',
            liquidatedUser: V1,
            liquidationMarkPx: 60990.1,
            liquidationMethod: 'market',
          },
          {
            oid: 72005,
            address: L1,
            coin: 'BTC',
            fullCoinName: 'BTC',
            fillType: 'perp',
            px: 60500,
            sz: 0.1,
            side: 'A',
            time: '2026-06-28T08:02:00.000Z',
            startPosition: 1,
            dir: 'Close Long',
            closedPnl: 5,
            hash: hash('e5'),
            crossed: false,
            fee: -0.01,
            builderFee: 0,
            tid: 9005,
            feeToken: 'USDC',
            builder: '',
            liquidatedUser: V2,
            liquidationMarkPx: 60510,
            liquidationMethod: 'market',
          },
        ],
        nextCursor: expect.stringMatching(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/),
      });
    });

    it('gives the stored fee token as it is, and an empty one when the line had none', async () => {
      const res = await get(`${FILLS}?limit=4&address=${V2}`);
      expect(res.body.fills.map((f: { tid: number; feeToken: string }) => [f.tid, f.feeToken])).toEqual([
        [9005, ''],
        [9003, 'USDC'],
      ]);
      const tsla = await get(`${FILLS}?coin=xyz:tsla`);
      expect(tsla.body.fills.map((f: { feeToken: string }) => f.feeToken)).toEqual(['USDH', 'USDH']);
    });

    it('is sent as the JSON Postgres rendered, with the JSON content type and every number a JSON number', async () => {
      const res = await get(`${FILLS}?limit=2&address=${V3}`);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(res.text)).toEqual({ fills: [expectedFill(MAIN[2]!)], nextCursor: null });
      expect(res.text).toMatch(/"px":3100,"sz":2,/);
    });

    it('walks every liquidation fill exactly once, newest first, with a small limit', async () => {
      const seen: unknown[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await get(`${FILLS}?limit=7${cursor ? `&nextCursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status).toBe(200);
        expect(res.body.fills.length).toBeLessThanOrEqual(7);
        seen.push(...res.body.fills);
        cursor = res.body.nextCursor;
        pages++;
      } while (cursor !== null);
      expect(pages).toBe(Math.ceil(LIQUIDATIONS.length / 7));
      expect(seen).toHaveLength(523);
      expect(seen).toEqual(expectedList(() => true));
      const keys = seen.map((f) => `${(f as { tid: number }).tid}/${(f as { address: string }).address}`);
      expect(new Set(keys).size).toBe(523);
      // One millisecond: tids in numeric order (as text 9003 would come before 100000), then addresses.
      expect(keys.slice(6, 11)).toEqual([`100000/${V4}`, `9003/${L2}`, `9003/${V2}`, `9002/${V3}`, `9002/${L1}`]);
    });

    it('walks a filtered list one fill a page, the cursor keeping the filters of each request', async () => {
      const seen: unknown[] = [];
      let cursor: string | null = null;
      do {
        const res = await get(`${FILLS}?limit=1&coin=ETH${cursor ? `&nextCursor=${encodeURIComponent(cursor)}` : ''}`);
        seen.push(...res.body.fills);
        cursor = res.body.nextCursor;
      } while (cursor !== null);
      // Same millisecond: tid 9003 before 9002; same tid: address descending.
      expect(seen.map((f) => [(f as { tid: number }).tid, (f as { address: string }).address])).toEqual([
        [9003, L2],
        [9003, V2],
        [9002, V3],
        [9002, L1],
      ]);
      expect(seen).toEqual(expectedList((s) => s.fill.coin === 'ETH'));
    });

    it('defaults to 500 fills a page, at most 500', async () => {
      const all = expectedList(() => true);
      const first = await get(FILLS);
      expect(first.status).toBe(200);
      expect(first.body.fills).toEqual(all.slice(0, 500));
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const rest = await get(`${FILLS}?nextCursor=${encodeURIComponent(first.body.nextCursor)}`);
      expect(rest.body).toEqual({ fills: all.slice(500), nextCursor: null });
      expect((await get(`${FILLS}?limit=500`)).body).toEqual(first.body);
      expect((await get(`${FILLS}?limit=1`)).body.fills).toEqual(all.slice(0, 1));
    });

    it('filters by coin in any case, HIP-3 markets included', async () => {
      expect((await get(`${FILLS}?coin=btc`)).body).toEqual({ fills: expectedList((s) => s.fill.coin === 'BTC'), nextCursor: null });
      expect((await get(`${FILLS}?coin=XYZ:tsla`)).body).toEqual({
        fills: expectedList((s) => s.fill.coin === 'xyz:TSLA'),
        nextCursor: null,
      });
      const sol = await get(`${FILLS}?coin=Sol&limit=500`);
      expect(sol.body.fills).toEqual(expectedList((s) => s.fill.coin === 'SOL').slice(0, 500));
      expect(sol.body.nextCursor).toEqual(expect.any(String));
    });

    it('answers a known market without liquidations with an empty page, and an unknown one with a 404', async () => {
      expect((await get(`${FILLS}?coin=hype`)).body).toEqual({ fills: [], nextCursor: null });
      const res = await get(`${FILLS}?coin=NOPE`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', message: 'Unknown coin: NOPE' });
    });

    it("filters by the fill's wallet, spelt in any case", async () => {
      const l1 = await get(`${FILLS}?address=${L1.toUpperCase().replace('0X', '0x')}`);
      expect(l1.body).toEqual({ fills: expectedList((s) => s.address === L1), nextCursor: null });
      expect(l1.body.fills.map((f: { liquidatedUser: string }) => f.liquidatedUser)).toEqual([V2, V3, V1]);
      for (const spelling of [V3, '0xAbCdEf0000000000000000000000000000001234', `0x${V3.slice(2).toUpperCase()}`, `0X${V3.slice(2)}`]) {
        expect((await get(`${FILLS}?address=${spelling}`)).body).toEqual({ fills: [expectedFill(MAIN[2]!)], nextCursor: null });
      }
      expect((await get(`${FILLS}?address=${address(0x9999)}`)).body).toEqual({ fills: [], nextCursor: null });
    });

    it('filters by side', async () => {
      const res = await get(`${FILLS}?side=B&coin=BTC`);
      expect(res.body).toEqual({ fills: expectedList((s) => s.fill.side === 'B' && s.fill.coin === 'BTC'), nextCursor: null });
      expect(res.body.fills.map((f: { tid: number }) => f.tid)).toEqual([9006, 9005, 100000, 9001]);
      const sells = await get(`${FILLS}?side=A&limit=500`);
      expect(sells.body.fills).toEqual(expectedList((s) => s.fill.side === 'A'));
    });

    it('includes both window edges, and start alone runs to the newest fill', async () => {
      const window = await get(`${FILLS}?start=${iso(t2)}&end=${iso(t3)}`);
      expect(window.body).toEqual({ fills: expectedList((s) => s.fill.time >= t2 && s.fill.time <= t3), nextCursor: null });
      expect(window.body.fills.map((f: { tid: number }) => f.tid)).toEqual([9005, 9005, 9004, 9004]);
      const inside = await get(`${FILLS}?start=${iso(t2 + 1)}&end=${iso(t3 - 1)}`);
      expect(inside.body).toEqual({ fills: [], nextCursor: null });
      const fromT1 = await get(`${FILLS}?start=${iso(t1)}`);
      expect(fromT1.body).toEqual({ fills: expectedList((s) => s.fill.time >= t1), nextCursor: null });
      expect(fromT1.body.fills).toHaveLength(11);
      // An offset names the same instant: 10:01 at +02:00 is 08:01 UTC.
      const offset = await get(
        `${FILLS}?start=${encodeURIComponent('2026-06-28T10:01:00+02:00')}&end=${encodeURIComponent('2026-06-28T10:02:00.000+02:00')}`,
      );
      expect(offset.body).toEqual(window.body);
      // A time without a zone is UTC.
      const zoneless = await get(`${FILLS}?start=2026-06-28T08:01:00&end=2026-06-28T08:02:00.000`);
      expect(zoneless.body).toEqual(window.body);
    });

    it('combines every filter', async () => {
      const res = await get(`${FILLS}?coin=eth&address=${L1.toUpperCase().replace('0X', '0x')}&side=A&start=${iso(t0)}&end=${iso(t1)}`);
      expect(res.body).toEqual({ fills: [expectedFill(MAIN[3]!)], nextCursor: null });
      const none = await get(`${FILLS}?coin=eth&address=${L1}&side=B&start=${iso(t0)}&end=${iso(t1)}`);
      expect(none.body).toEqual({ fills: [], nextCursor: null });
      const v1 = await get(`${FILLS}?address=${V1}&side=A&start=${iso(t0)}&limit=2`);
      expect(v1.body.fills).toEqual(expectedList((s) => s.address === V1).slice(0, 2));
      const next = await get(`${FILLS}?address=${V1}&side=A&start=${iso(t0)}&limit=2&nextCursor=${encodeURIComponent(v1.body.nextCursor)}`);
      expect(next.body).toEqual({ fills: expectedList((s) => s.address === V1).slice(2), nextCursor: null });
    });

    it('accepts a window of exactly 3 calendar months, and not a millisecond more', async () => {
      // 31 January + 3 months is 30 April (the last day of the month).
      expect((await get(`${FILLS}?start=2026-01-31T00:00:00Z&end=2026-04-30T00:00:00Z`)).body).toEqual({ fills: [], nextCursor: null });
      const over = await get(`${FILLS}?start=2026-01-31T00:00:00Z&end=2026-04-30T00:00:00.001Z`);
      expect(over.status).toBe(400);
      expect(over.body).toEqual(badRequest([{ field: 'end', message: 'end must be at most 3 months after start' }]));
      const june = await get(`${FILLS}?start=${iso(T - 3 * 24 * 60 * MIN)}&end=2026-09-25T08:00:00Z`);
      expect(june.status).toBe(200);
      expect((await get(`${FILLS}?start=2026-06-25T08:00:00Z&end=2026-09-25T08:00:00.001Z`)).status).toBe(400);
    });

    it.each([
      ['end=2026-06-28T08:00:00Z', [{ field: 'end', message: 'end is only accepted together with start' }]],
      ['start=2026-06-28T08:00:00Z&end=2026-06-28T07:59:59.999Z', [{ field: 'end', message: 'end must be later than start' }]],
      ['start=2026-06-28T08:00:00Z&end=2026-06-28T08:00:00Z', [{ field: 'end', message: 'end must be later than start' }]],
      ['start=2026-01-01T00:00:00Z&end=2026-06-28T08:00:00Z', [{ field: 'end', message: 'end must be at most 3 months after start' }]],
      [
        'start=yesterday',
        [{ field: 'start', message: 'start must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)' }],
      ],
      [
        'start=2026-06-28 08:00:00Z',
        [{ field: 'start', message: 'start must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)' }],
      ],
      [
        'start=2026-02-30T08:00:00Z',
        [{ field: 'start', message: 'start must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)' }],
      ],
      [
        'start=2026-06-28T08:00:00Z&end=06/29/2026',
        [{ field: 'end', message: 'end must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)' }],
      ],
      ['limit=0', [{ field: 'limit', message: 'limit must not be less than 1' }]],
      ['limit=501', [{ field: 'limit', message: 'limit must not be greater than 500' }]],
      ['limit=abc', [{ field: 'limit', message: 'limit must be an integer number' }]],
      ['limit=2.5', [{ field: 'limit', message: 'limit must be an integer number' }]],
      ['address=0x1234', [{ field: 'address', message: 'address must be a 0x address of 40 hex digits' }]],
      [`address=${V1.slice(0, -1)}g`, [{ field: 'address', message: 'address must be a 0x address of 40 hex digits' }]],
      ['side=C', [{ field: 'side', message: 'side must be one of the following values: A, B' }]],
      ['side=a', [{ field: 'side', message: 'side must be one of the following values: A, B' }]],
      ['coin=', [{ field: 'coin', message: 'coin should not be empty' }]],
      ['segmentId=2', [{ field: 'segmentId', message: 'property segmentId should not exist' }]],
    ])('answers ?%s with a 400 naming the field', async (query, errors) => {
      const res = await get(`${FILLS}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest(errors));
    });

    it('refuses an altered, truncated or foreign cursor with a 400 naming nextCursor', async () => {
      const { nextCursor } = (await get(`${FILLS}?limit=2`)).body as { nextCursor: string };
      const [payload, signature] = nextCursor.split('.') as [string, string];
      const keys = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [number, string, string];
      const altered = `${Buffer.from(JSON.stringify([keys[0] - 1, keys[1], keys[2]])).toString('base64url')}.${signature}`;
      for (const [cursor, reason] of [
        [altered, 'signature does not match'],
        [`${payload}.${signature.slice(0, -2)}`, 'signature does not match'],
        ['not-a-cursor', 'malformed'],
      ] as const) {
        const res = await get(`${FILLS}?limit=2&nextCursor=${encodeURIComponent(cursor)}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          badRequest([{ field: 'nextCursor', message: `nextCursor is not a cursor this list issued (${reason}); start again without it` }]),
        );
      }
      // The genuine cursor still reads on.
      expect((await get(`${FILLS}?limit=2&nextCursor=${encodeURIComponent(nextCursor)}`)).body.fills).toEqual(
        expectedList(() => true).slice(2, 4),
      );
    });

    it('needs the bearer token', async () => {
      const res = await suite.api.get(FILLS);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', message: 'Unauthorized' });
    });
  });
});
