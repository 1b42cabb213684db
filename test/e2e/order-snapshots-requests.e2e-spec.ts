import { beforeAll, describe, expect, it } from '@jest/globals';
import { address } from '#testing';
import {
  BASE,
  SECOND,
  MIN,
  HOUR,
  DAY,
  GRID,
  iso,
  gridAtOrBefore,
  END,
  FIRST,
  MID,
  BookScenario,
  expectedAt,
  type OpenOrder,
  badRequest,
  notFound,
  ISO_RULE,
  GRID_RULE,
  useBookSuite,
  writeThreeHours,
} from '../support/order-snapshots.fixture.js';

describe('Order snapshots', () => {
  const { suite, book, scenario, walk } = useBookSuite();
  const { get } = suite;

  describe('with three hours of blocks', () => {
    beforeAll(() => writeThreeHours(book));

    it('accepts a snapshot time with an offset, without a zone or as a date at midnight', async () => {
      const body = (await get(`${BASE}/${iso(MID)}?limit=500`)).body;
      const offset = new Date(MID + 2 * HOUR).toISOString().replace('Z', '+02:00');
      expect((await get(`${BASE}/${encodeURIComponent(offset)}?limit=500`)).body).toEqual(body);
      expect((await get(`${BASE}/${iso(MID).replace('Z', '')}?limit=500`)).body).toEqual(body);
      // Midnight of the day before the first block is on the grid, and no block came before it, so no
      // snapshot (the first block's own midnight may fall inside the three hours, by the time of day).
      const day = iso(FIRST - DAY).slice(0, 10);
      const res = await get(`${BASE}/${day}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound(`No order snapshot was taken at ${day}T00:00:00.000Z`));
    });

    it('answers a grid time of the last 30 days without a snapshot with a 404', async () => {
      for (const t of [END - GRID * 40, END + GRID, gridAtOrBefore(Date.now() - MIN), gridAtOrBefore(Date.now() - 30 * DAY + 2 * GRID)]) {
        const res = await get(`${BASE}/${iso(t)}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound(`No order snapshot was taken at ${iso(t)}`));
      }
    });

    it.each([
      ['off the grid by a millisecond', () => iso(END + 1), GRID_RULE],
      ['off the grid by a minute', () => iso(END - MIN), GRID_RULE],
      ['off the grid by a second', () => iso(END + SECOND), GRID_RULE],
      ['in the future', () => iso(gridAtOrBefore(Date.now()) + 2 * GRID), 'snapshotTime must not be in the future'],
      [
        'more than 30 days old',
        () => iso(gridAtOrBefore(Date.now() - 30 * DAY) - 2 * GRID),
        'snapshotTime must be within the last 30 days (snapshots are kept 30 days)',
      ],
      ['a year old', () => iso(END - 365 * DAY), 'snapshotTime must be within the last 30 days (snapshots are kept 30 days)'],
      ['not a time', () => 'yesterday', ISO_RULE('snapshotTime')],
      ['a day that does not exist', () => '2026-02-30T00:00:00Z', ISO_RULE('snapshotTime')],
      ['epoch ms', () => String(END), ISO_RULE('snapshotTime')],
    ])('answers a snapshotTime %s with a 400 naming the rule', async (_case, value, message) => {
      const res = await get(`${BASE}/${encodeURIComponent(value())}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest('snapshotTime', message));
    });

    it.each([
      ['limit=0', 'limit', 'limit must not be less than 1'],
      ['limit=501', 'limit', 'limit must not be greater than 500'],
      ['limit=ten', 'limit', 'limit must be an integer number'],
      ['oid=-1', 'oid', 'oid must be a non-negative integer'],
      ['oid=1.5', 'oid', 'oid must be an integer number'],
      ['oid=1e3', 'oid', 'oid must be an integer number'],
      ['oid=abc', 'oid', 'oid must be an integer number'],
      ['oid=99999999999999999999', 'oid', `oid must not be greater than ${Number.MAX_SAFE_INTEGER}`],
      ['address=0x1234', 'address', 'address must be a 0x address of 40 hex digits'],
      [`address=${address(1).slice(0, -1)}g`, 'address', 'address must be a 0x address of 40 hex digits'],
      [
        'orderType=Market',
        'orderType',
        'orderType must be one of the following values: Limit, Stop Limit, Stop Market, Take Profit Limit, Take Profit Market',
      ],
      [
        'orderType=limit',
        'orderType',
        'orderType must be one of the following values: Limit, Stop Limit, Stop Market, Take Profit Limit, Take Profit Market',
      ],
      ['start=soon', 'start', ISO_RULE('start')],
      ['end=2026-13-01T00:00:00Z', 'end', ISO_RULE('end')],
      [`start=${iso(END)}&end=${iso(END - 1)}`, 'end', 'end must not be before start'],
      ['coin=', 'coin', 'coin should not be empty'],
      ['side=A', 'side', 'property side should not exist'],
    ])('answers ?%s with a 400 naming the field, on both page routes', async (query, field, message) => {
      for (const path of [`${BASE}/latest`, `${BASE}/${iso(MID)}`]) {
        const res = await get(`${path}?${query}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(badRequest(field, message));
      }
    });

    it('refuses a query on the timestamp route', async () => {
      const res = await get(`${BASE}/latest-snapshot-timestamp?limit=1`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest('limit', 'property limit should not exist'));
    });

    it('refuses an altered cursor, and a cursor of another snapshot, with a 400 naming nextCursor', async () => {
      const { nextCursor } = (await get(`${BASE}/${iso(MID)}?limit=3`)).body as { nextCursor: string };
      const [payload, signature] = nextCursor.split('.') as [string, string];
      const keys = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [number, string, number];
      const altered = `${Buffer.from(JSON.stringify([keys[0], keys[1], keys[2] + 1])).toString('base64url')}.${signature}`;
      for (const [cursor, reason] of [
        [altered, 'signature does not match'],
        ['nope', 'malformed'],
      ] as const) {
        const res = await get(`${BASE}/${iso(MID)}?limit=3&nextCursor=${encodeURIComponent(cursor)}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          badRequest('nextCursor', `nextCursor is not a cursor this list issued (${reason}); start again without it`),
        );
      }
      const other = await get(`${BASE}/${iso(MID + GRID)}?limit=3&nextCursor=${encodeURIComponent(nextCursor)}`);
      expect(other.status).toBe(400);
      expect(other.body).toEqual(
        badRequest('nextCursor', `nextCursor continues the snapshot of ${iso(MID)}, not this one; start again without it`),
      );
      expect((await get(`${BASE}/${iso(MID)}?limit=3&nextCursor=${encodeURIComponent(nextCursor)}`)).body.orders).toEqual(
        expectedAt(scenario.blocks, MID).slice(3, 6),
      );
    });

    it('documents the three routes in the OpenAPI document', async () => {
      const doc = (await suite.api.http.get('/docs-json')).body as {
        paths: Record<
          string,
          { get: { parameters: Array<{ name: string; in: string }>; responses: Record<string, unknown>; security: unknown } }
        >;
      };
      const filters = ['address', 'coin', 'end', 'limit', 'nextCursor', 'oid', 'orderType', 'start'].map((name) => `query:${name}`);
      const params = (path: string) => doc.paths[path]!.get.parameters.map((p) => `${p.in}:${p.name}`).sort();
      expect(params(`${BASE}/latest-snapshot-timestamp`)).toEqual([]);
      expect(params(`${BASE}/latest`)).toEqual(filters);
      expect(params(`${BASE}/{snapshotTime}`)).toEqual(['path:snapshotTime', ...filters].sort());
      for (const path of [`${BASE}/latest-snapshot-timestamp`, `${BASE}/latest`, `${BASE}/{snapshotTime}`]) {
        expect(doc.paths[path]!.get.security).toEqual([{ bearer: [] }]);
        expect(Object.keys(doc.paths[path]!.get.responses).sort()).toEqual(['200', '400', '401', '404', '429', '500']);
      }
    });

    it('needs the bearer token', async () => {
      for (const path of [`${BASE}/latest-snapshot-timestamp`, `${BASE}/latest`, `${BASE}/${iso(MID)}`]) {
        const res = await suite.api.get(path);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ status: 'error', message: 'Unauthorized' });
      }
    });

    // Last: it moves the newest snapshot on.
    it('keeps a /latest cursor on its snapshot while a newer one is taken', async () => {
      const before = expectedAt(scenario.blocks, END);
      const first = await get(`${BASE}/latest?limit=60`);
      expect(first.body.orders).toEqual(before.slice(0, 60));

      // Five minutes more: five resting orders canceled, then a block past the next boundary.
      scenario.add(END + 2 * MIN, (live) =>
        [...live].slice(0, 5).map(([key, o]) => {
          live.delete(key);
          return { user: o.user, status: 'canceled', order: o.order, builder: o.builder };
        }),
      );
      scenario.add(END + GRID + SECOND);
      await book.facts.writeBlocks(BookScenario.feed(scenario.blocks.slice(-2)), 'node');
      const after = expectedAt(scenario.blocks, END + GRID);
      expect(after).not.toEqual(before.map((o) => ({ ...o, snapshotTs: iso(END + GRID) })));
      expect((await get(`${BASE}/latest-snapshot-timestamp`)).body).toBe(iso(END + GRID));

      const rest: OpenOrder[] = [];
      let cursor: string | null = first.body.nextCursor;
      while (cursor !== null) {
        const res = await get(`${BASE}/latest?limit=60&nextCursor=${encodeURIComponent(cursor)}`);
        rest.push(...res.body.orders);
        cursor = res.body.nextCursor;
      }
      expect([...first.body.orders, ...rest]).toEqual(before);
      expect(await walk(`${BASE}/latest`, 60)).toEqual(after);
      expect((await get(`${BASE}/${iso(END)}?limit=60&nextCursor=${encodeURIComponent(first.body.nextCursor)}`)).body.orders).toEqual(
        before.slice(60, 120),
      );
    });
  });
});
