import { describe, expect, it } from '@jest/globals';
import {
  LIST,
  SUMMARY,
  DAY,
  iso,
  NOW,
  W,
  FLAT,
  NOBODY,
  mixedCase,
  DOGE_AT,
  tradeJson,
  TRADES,
  ofWallet,
  closedIn,
  badRequest,
  seedClosedTrades,
} from '../support/closed-trades.fixture.js';
import { useSeededApi } from '../support/seeded-api.js';

describe('Closed trades', () => {
  const suite = useSeededApi({ name: 'closed-trades-suite', rateLimitPerMinute: 100_000 }, seedClosedTrades);
  const { get } = suite;

  /** Every page of a list, each checked to hold at most `limit` trades. */
  async function walk(query: string, limit: number): Promise<unknown[]> {
    const trades: unknown[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(`${LIST}?${query}&limit=${limit}${cursor ? `&nextCursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['nextCursor', 'trades']);
      expect(res.body.trades.length).toBeLessThanOrEqual(limit);
      trades.push(...res.body.trades);
      cursor = res.body.nextCursor;
    } while (cursor !== null);
    return trades;
  }

  describe('GET /api/external/closed-trades', () => {
    it('stored exactly the trades the fills make (the still-open position is none of them)', async () => {
      const rows: Array<{ hash: string }> = await suite.dataSource.query(`SELECT hash FROM closed_trades ORDER BY hash`);
      expect(rows.map((r) => r.hash)).toEqual(TRADES.map((t) => t.hash).sort());
      expect(TRADES.filter((t) => t.fundingUsd !== '0').length).toBeGreaterThan(10);
    });

    it('defaults to the 7 days up to now, newest close first, 100 trades a page', async () => {
      const week = ofWallet(W, closedIn(NOW - 7 * DAY, NOW)).map(tradeJson);
      expect(week).toHaveLength(131); // the recent trades and the partial DOGE one
      const first = await get(`${LIST}?address=${mixedCase(W)}`);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ trades: week.slice(0, 100), nextCursor: expect.stringMatching(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/) });
      const second = await get(`${LIST}?address=${W}&nextCursor=${encodeURIComponent(first.body.nextCursor)}`);
      expect(second.body).toEqual({ trades: week.slice(100), nextCursor: null });
    });

    it('gives the contract fields of each trade and its outcome, a partial one with a null average entry', async () => {
      const doge = ofWallet(W, (t) => t.coin === 'DOGE').map(tradeJson);
      expect(doge).toEqual([
        {
          address: W,
          hash: doge[0]!.hash,
          id: `${DOGE_AT}-${doge[0]!.hash.slice(0, 16)}`,
          side: 'long',
          coin: 'DOGE',
          avgExit: 0.19,
          avgEntry: null,
          duration: 0,
          openTime: iso(DOGE_AT),
          closeTime: iso(DOGE_AT),
          partial: true,
          totalSize: 0,
          totalUsd: 0,
          realizedPnlUsd: -10,
          countFills: 1,
          fee: 0.1,
          feeUsd: 0.1,
          fundingUsd: 0,
          netPnlUsd: -10.1,
          outcome: 'loss',
        },
      ]);
      const res = await get(`${LIST}?address=${W}&startTime=${iso(DOGE_AT)}&endTime=${iso(DOGE_AT)}`);
      expect(res.body).toEqual({ trades: doge, nextCursor: null });
    });

    it('walks every trade of a window exactly once with a small limit', async () => {
      const expected = ofWallet(W, closedIn(NOW - 7 * DAY, NOW)).map(tradeJson);
      const seen = await walk(`address=${W}`, 7);
      expect(seen).toEqual(expected);
      expect(new Set(seen.map((t) => (t as { hash: string }).hash)).size).toBe(expected.length);
    });

    it('reads an explicit window with both bounds inclusive, up to exactly 30 days', async () => {
      const start = NOW - 46 * DAY;
      const end = start + 30 * DAY;
      const res = await get(`${LIST}?address=${W}&startTime=${iso(start)}&endTime=${iso(end)}`);
      expect(res.body).toEqual({ trades: ofWallet(W, closedIn(start, end)).map(tradeJson), nextCursor: null });
      expect(res.body.trades).toHaveLength(2); // 20 and 45 days ago

      const recent = ofWallet(W, closedIn(NOW - 7 * DAY, NOW));
      const [newer, older] = [recent[5]!, recent[40]!];
      const edges = await walk(`address=${W}&startTime=${iso(older.closeTime)}&endTime=${iso(newer.closeTime)}`, 500);
      expect(edges).toEqual(recent.slice(5, 41).map(tradeJson));
      const inside = await walk(`address=${W}&startTime=${iso(older.closeTime + 1)}&endTime=${iso(newer.closeTime - 1)}`, 500);
      expect(inside).toEqual(recent.slice(6, 40).map(tradeJson));
    });

    it('defaults endTime to now and startTime to endTime minus 7 days, each alone', async () => {
      const since = NOW - 3 * DAY;
      expect(await walk(`address=${W}&startTime=${iso(since)}`, 500)).toEqual(ofWallet(W, (t) => t.closeTime >= since).map(tradeJson));
      const until = NOW - 3 * DAY;
      const upTo = await walk(`address=${W}&endTime=${iso(until)}`, 500);
      expect(upTo).toEqual(ofWallet(W, closedIn(until - 7 * DAY, until)).map(tradeJson));
      expect(upTo.some((t) => (t as { closeTime: string }).closeTime < iso(NOW - 9 * DAY))).toBe(true); // the trade of 9.5 days ago
    });

    it('accepts limits of 1 and 500, and a time without a zone as UTC', async () => {
      const week = ofWallet(W, closedIn(NOW - 7 * DAY, NOW)).map(tradeJson);
      expect((await get(`${LIST}?address=${W}&limit=1`)).body.trades).toEqual(week.slice(0, 1));
      expect((await get(`${LIST}?address=${W}&limit=500`)).body).toEqual({ trades: week, nextCursor: null });
      const start = NOW - 46 * DAY;
      const zoneless = await get(
        `${LIST}?address=${W}&startTime=${iso(start).replace('Z', '')}&endTime=${iso(start + 30 * DAY).replace('Z', '')}`,
      );
      expect(zoneless.body.trades).toEqual(ofWallet(W, closedIn(start, start + 30 * DAY)).map(tradeJson));
    });

    it("lists one wallet's trades only, and none for a wallet without trades", async () => {
      expect((await get(`${LIST}?address=${FLAT.toUpperCase().replace('0X', '0x')}`)).body).toEqual({
        trades: ofWallet(FLAT).map(tradeJson),
        nextCursor: null,
      });
      expect((await get(`${LIST}?address=${NOBODY}`)).body).toEqual({ trades: [], nextCursor: null });
    });

    it('keeps the window of the first page in the cursor, and refuses another window or an altered cursor', async () => {
      const start = NOW - 6 * DAY;
      const end = NOW - DAY;
      const first = await get(`${LIST}?address=${W}&startTime=${iso(start)}&endTime=${iso(end)}&limit=10`);
      const expected = ofWallet(W, closedIn(start, end)).map(tradeJson);
      expect(first.body.trades).toEqual(expected.slice(0, 10));
      const cursor = encodeURIComponent(first.body.nextCursor);
      // Without the times, the cursor's window goes on; with the same ones too.
      expect((await get(`${LIST}?address=${W}&limit=10&nextCursor=${cursor}`)).body.trades).toEqual(expected.slice(10, 20));
      expect(
        (await get(`${LIST}?address=${W}&startTime=${iso(start)}&endTime=${iso(end)}&limit=10&nextCursor=${cursor}`)).body.trades,
      ).toEqual(expected.slice(10, 20));
      const moved = await get(`${LIST}?address=${W}&startTime=${iso(start + 1)}&limit=10&nextCursor=${cursor}`);
      expect(moved.status).toBe(400);
      expect(moved.body).toEqual(
        badRequest('nextCursor', 'nextCursor continues another window: send the same startTime and endTime as the first page, or none'),
      );

      const [payload, signature] = (first.body.nextCursor as string).split('.') as [string, string];
      const keys = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
      const altered = `${Buffer.from(JSON.stringify([keys[0], keys[1], start - 30 * DAY, keys[3]])).toString('base64url')}.${signature}`;
      for (const [text, reason] of [
        [altered, 'signature does not match'],
        ['x.y', 'signature does not match'],
        ['garbage', 'malformed'],
      ] as const) {
        const res = await get(`${LIST}?address=${W}&nextCursor=${encodeURIComponent(text)}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          badRequest('nextCursor', `nextCursor is not a cursor this list issued (${reason}); start again without it`),
        );
      }
    });

    it.each([
      ['', 'address', 'address is required'],
      ['address=0x12', 'address', 'address must be a 0x address of 40 hex digits'],
      [`address=${W.slice(0, -1)}z`, 'address', 'address must be a 0x address of 40 hex digits'],
      [
        `address=${W}&startTime=2026-01-01T00:00:00Z&endTime=2026-01-31T00:00:00.001Z`,
        'endTime',
        'endTime must be at most 30 days after startTime',
      ],
      [`address=${W}&startTime=${iso(NOW - 31 * DAY)}`, 'endTime', 'endTime must be at most 30 days after startTime'],
      [`address=${W}&startTime=2026-01-02T00:00:00Z&endTime=2026-01-01T23:59:59.999Z`, 'endTime', 'endTime must not be before startTime'],
      [`address=${W}&endTime=${iso(NOW - 10 * DAY)}&startTime=${iso(NOW - 9 * DAY)}`, 'endTime', 'endTime must not be before startTime'],
      [
        `address=${W}&startTime=last-week`,
        'startTime',
        'startTime must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)',
      ],
      [
        `address=${W}&endTime=2026-02-30`,
        'endTime',
        'endTime must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)',
      ],
      [`address=${W}&limit=0`, 'limit', 'limit must not be less than 1'],
      [`address=${W}&limit=501`, 'limit', 'limit must not be greater than 500'],
      [`address=${W}&limit=1.5`, 'limit', 'limit must be an integer number'],
      [`address=${W}&coin=BTC`, 'coin', 'property coin should not exist'],
    ])('answers ?%s with a 400 naming the field', async (query, field, message) => {
      const res = await get(`${LIST}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest(field, message));
    });

    it('needs the bearer token', async () => {
      const res = await suite.api.get(`${LIST}?address=${W}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', message: 'Unauthorized' });
    });
  });

  it('documents both routes in the OpenAPI document', async () => {
    const doc = (await suite.api.http.get('/docs-json')).body as {
      paths: Record<
        string,
        { get: { parameters: Array<{ name: string; in: string; required: boolean }>; responses: Record<string, unknown> } }
      >;
    };
    const params = (path: string) => doc.paths[path]!.get.parameters.map((p) => `${p.name}${p.required ? '!' : ''}`).sort();
    expect(params(LIST)).toEqual(['address!', 'endTime', 'limit', 'nextCursor', 'startTime']);
    expect(params(SUMMARY)).toEqual(['address!', 'interval']);
    for (const path of [LIST, SUMMARY])
      expect(Object.keys(doc.paths[path]!.get.responses).sort()).toEqual(['200', '400', '401', '429', '500']);
  });
});
