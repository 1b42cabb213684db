import { beforeAll, describe, expect, it } from '@jest/globals';
import { positionState } from '#testing';
import {
  POSITIONS,
  at,
  iso,
  UPDATES,
  LAST,
  hex40,
  A,
  C,
  W,
  type Stint,
  STINTS,
  type Key,
  KEYS,
  type PositionBody,
  seedPositions,
  getWithQuery,
} from '../support/positions.fixture.js';
import { useSeededApi } from '../support/seeded-api.js';

describe('positions routes', () => {
  const suite = useSeededApi({ name: 'positions-suite' }, seedPositions);
  const get = getWithQuery(suite);
  /** Record ids, stored by the database: looked up once by wallet, coin and open time. */
  const ids = new Map<Key, number>();

  const openMs = (key: Key): number => (STINTS[key] as Stint).openedByFillAt ?? at(UPDATES[STINTS[key].from]!);

  /** The record the route must return for a stint, from the seeded values alone. */
  function expected(key: Key): PositionBody {
    const s: Stint = STINTS[key];
    const lastShown = s.until === undefined ? LAST : s.until - 1;
    const p = positionState(s.coin, s.state(lastShown));
    return {
      id: ids.get(key)!,
      address: s.wallet.address,
      coin: s.coin,
      dex: s.coin.startsWith('xyz:') ? 'xyz' : 'main',
      side: p.szi.startsWith('-') ? 'short' : 'long',
      size: Number(p.szi.replace('-', '')),
      value: Number(p.positionValue),
      entryPrice: Number(p.entryPx),
      unrealizedPnl: Number(p.unrealizedPnl),
      funding: Number(p.fundingSinceOpen),
      liquidationPrice: p.liquidationPx === null ? null : Number(p.liquidationPx),
      liquidationProgress: s.progress,
      leverageType: p.leverageType,
      leverage: p.leverage,
      marginUsed: Number(p.marginUsed),
      openTime: new Date(openMs(key)).toISOString(),
      closeTime: s.until === undefined ? null : iso(UPDATES[s.until]!),
      createdAt: iso(UPDATES[s.from]!),
      // An open record is rewritten by every update; a closed one last by the update that closed it.
      updatedAt: iso(UPDATES[s.until ?? LAST]!),
    };
  }

  /** Newest open time first, then the higher id. */
  const ordered = (keys: Key[]): PositionBody[] =>
    keys.map(expected).sort((x, y) => Date.parse(y.openTime) - Date.parse(x.openTime) || y.id - x.id);
  const ALL_TIME = { start: iso(-60), end: iso(UPDATES[LAST]! + 60) };

  beforeAll(async () => {
    const rows: Array<{ id: string; address: string; coin: string; open_ms: string }> = await suite.dataSource.query(
      `SELECT id::text, address, coin, (extract(epoch FROM open_time) * 1000)::bigint::text AS open_ms FROM positions`,
    );
    for (const key of KEYS) {
      const row = rows.find(
        (r) => r.address === STINTS[key].wallet.address && r.coin === STINTS[key].coin && Number(r.open_ms) === openMs(key),
      );
      ids.set(key, Number(row!.id));
    }
    expect(rows).toHaveLength(KEYS.length);
  });

  describe('GET /api/external/positions', () => {
    it('returns the positions open at any moment of the window, with the exact record; closed exactly at start and opened exactly at end count', async () => {
      // Window 02:00..03:00: a1 closed exactly at 02:00 (counts), b3 opened exactly at 03:00 (counts), c1 closed at 03:00;
      // a2 and b1 closed at 01:00, before the start, and w3 opened at 09:30, after the end: not in it.
      const res = await get(POSITIONS, { start: iso(120), end: iso(180) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ positions: ordered(['b3', 'a3', 'b2', 'c1', 'w1', 'w2', 'a1']), nextCursor: null });
      // Spelled out once, so the expected-record builder itself is checked: A's BTC long, opened by its fill.
      expect(res.body.positions.at(-1)).toEqual({
        id: ids.get('a1'),
        address: A.address,
        coin: 'BTC',
        dex: 'main',
        side: 'long',
        size: 0.5,
        value: 29000,
        entryPrice: 60000,
        unrealizedPnl: -1000,
        funding: -2.5,
        liquidationPrice: 40000,
        liquidationProgress: 0.1,
        leverageType: 'cross',
        leverage: 10,
        marginUsed: 2900,
        openTime: '2026-01-09T23:50:00.000Z',
        closeTime: '2026-01-10T02:00:00.000Z',
        createdAt: '2026-01-10T00:00:00.000Z',
        updatedAt: '2026-01-10T02:00:00.000Z',
      });
    });

    it('reads a time without a zone as UTC', async () => {
      const zoned = await get(POSITIONS, { start: iso(120), end: iso(180) });
      const bare = await get(POSITIONS, { start: '2026-01-10T02:00:00', end: '2026-01-10T03:00:00.000' });
      expect(bare.status).toBe(200);
      expect(bare.body).toEqual(zoned.body);
    });

    it('leaves out a position closed a millisecond before start and one opened a millisecond after end', async () => {
      const justAfterClose = await get(POSITIONS, { start: new Date(at(120) + 1).toISOString(), end: new Date(at(180) - 1).toISOString() });
      // a1 closed at 02:00:00.000, before 02:00:00.001; b3 opened at 03:00:00.000, after 02:59:59.999.
      expect(justAfterClose.body).toEqual({ positions: ordered(['a3', 'b2', 'c1', 'w1', 'w2']), nextCursor: null });
    });

    it('gives the real close time of a position later closed, queried with an earlier window', async () => {
      const res = await get(POSITIONS, { start: iso(0), end: iso(30) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ positions: ordered(['a2', 'b1', 'c1', 'w1', 'w2', 'a1']), nextCursor: null });
      const closeTimes = Object.fromEntries(res.body.positions.map((p: PositionBody) => [`${p.address.slice(-2)}:${p.coin}`, p.closeTime]));
      expect(closeTimes).toEqual({
        'a1:BTC': '2026-01-10T02:00:00.000Z',
        'a1:ETH': '2026-01-10T01:00:00.000Z',
        'b2:BTC': '2026-01-10T01:00:00.000Z',
        'c3:SOL': '2026-01-10T03:00:00.000Z',
        'd4:BTC': null,
        'd4:xyz:TSLA': null,
      });
    });

    it('filters open (true) and closed (false) positions', async () => {
      const open = await get(POSITIONS, { ...ALL_TIME, open: 'true' });
      expect(open.body).toEqual({ positions: ordered(['b3', 'a3', 'b2', 'w1', 'w2']), nextCursor: null });
      const closed = await get(POSITIONS, { ...ALL_TIME, open: 'false' });
      expect(closed.body).toEqual({ positions: ordered(['w3', 'c1', 'a2', 'b1', 'a1']), nextCursor: null });
      const both = await get(POSITIONS, ALL_TIME);
      expect(both.body).toEqual({ positions: ordered(KEYS), nextCursor: null });
    });

    it('takes addresses repeated, comma-separated and in upper case', async () => {
      const want = { positions: ordered(['a3', 'c1', 'a2', 'a1']), nextCursor: null };
      const repeated = await get(POSITIONS, { ...ALL_TIME, address: [A.address, C.address] });
      expect(repeated.status).toBe(200);
      expect(repeated.body).toEqual(want);
      expect((await get(POSITIONS, { ...ALL_TIME, address: `${A.address},${C.address}` })).body).toEqual(want);
      const upper = `${A.address.toUpperCase()},0x${C.address.slice(2).toUpperCase()}`;
      expect((await get(POSITIONS, { ...ALL_TIME, address: upper })).body).toEqual(want);
      expect((await get(POSITIONS, { ...ALL_TIME, address: hex40('e5') })).body).toEqual({ positions: [], nextCursor: null });
    });

    it('filters by the cohort the wallets are in now, size or pnl', async () => {
      expect((await get(POSITIONS, { ...ALL_TIME, segmentId: '5' })).body).toEqual({
        positions: ordered(['w3', 'w1', 'w2']),
        nextCursor: null,
      }); // Whale
      expect((await get(POSITIONS, { ...ALL_TIME, segmentId: '10' })).body).toEqual({
        positions: ordered(['b3', 'b2', 'b1']),
        nextCursor: null,
      }); // Consistent Grinder
      expect((await get(POSITIONS, { ...ALL_TIME, segmentId: '16', open: 'false' })).body).toEqual({
        positions: ordered(['c1']),
        nextCursor: null,
      }); // Shrimp
      expect((await get(POSITIONS, { ...ALL_TIME, segmentId: '3' })).body).toEqual({ positions: [], nextCursor: null }); // Apex Predator: nobody
    });

    it('filters by coin in any case', async () => {
      expect((await get(POSITIONS, { ...ALL_TIME, coin: 'btc' })).body).toEqual({
        positions: ordered(['b2', 'b1', 'w1', 'a1']),
        nextCursor: null,
      });
      expect((await get(POSITIONS, { ...ALL_TIME, coin: 'XYZ:tsla' })).body).toEqual({ positions: ordered(['w2']), nextCursor: null });
      expect((await get(POSITIONS, { ...ALL_TIME, coin: 'sol', open: 'false', address: W.address })).body).toEqual({
        positions: ordered(['w3']),
        nextCursor: null,
      });
    });

    it('defaults the window to the 24 hours before now: only the positions still open', async () => {
      const res = await get(POSITIONS);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ positions: ordered(['b3', 'a3', 'b2', 'w1', 'w2']), nextCursor: null });
      // end alone: start is 24 hours before it (4:00), after a1, a2, b1 and c1 closed, before w3 did.
      expect((await get(POSITIONS, { end: iso(1680) })).body).toEqual({
        positions: ordered(['b3', 'a3', 'b2', 'w3', 'w1', 'w2']),
        nextCursor: null,
      });
    });

    it('walks every page with a small limit: each position exactly once, in order', async () => {
      for (const query of [ALL_TIME, {}, { ...ALL_TIME, coin: 'BTC' }] as Array<Record<string, string>>) {
        const whole = (await get(POSITIONS, query)).body.positions as PositionBody[];
        for (const limit of [1, 2, 3]) {
          const walked: PositionBody[] = [];
          let cursor: string | null = null;
          let pages = 0;
          do {
            const res = await get(POSITIONS, { ...query, limit: String(limit), ...(cursor ? { nextCursor: cursor } : {}) });
            expect(res.status).toBe(200);
            expect(res.body.positions.length).toBeLessThanOrEqual(limit);
            walked.push(...res.body.positions);
            cursor = res.body.nextCursor;
            pages += 1;
          } while (cursor !== null);
          expect(walked).toEqual(whole);
          expect(new Set(walked.map((p) => p.id)).size).toBe(walked.length);
          expect(pages).toBe(Math.max(1, Math.ceil(whole.length / limit)));
        }
      }
      expect((await get(POSITIONS, ALL_TIME)).body.positions).toHaveLength(KEYS.length);
    });

    it('gives a cursor while more follow and null on the last page, also when it is full', async () => {
      const first = await get(POSITIONS, { ...ALL_TIME, limit: '5' });
      expect(first.body).toEqual({ positions: ordered(KEYS).slice(0, 5), nextCursor: expect.any(String) });
      // The second page is full and the last: its cursor is null.
      const second = await get(POSITIONS, { ...ALL_TIME, limit: '5', nextCursor: first.body.nextCursor });
      expect(second.body).toEqual({ positions: ordered(KEYS).slice(5), nextCursor: null });
      // Omitting start and end on a later page keeps the cursor's window.
      const kept = await get(POSITIONS, { limit: '5', nextCursor: first.body.nextCursor });
      expect(kept.body).toEqual(second.body);
    });

    it('refuses a tampered cursor, and a cursor sent with another window', async () => {
      const first = await get(POSITIONS, { ...ALL_TIME, limit: '2' });
      const [payload, signature] = (first.body.nextCursor as string).split('.');
      const keys = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as number[];
      const forged = `${Buffer.from(JSON.stringify([keys[0], keys[1]! - 1, ...keys.slice(2)])).toString('base64url')}.${signature}`;
      const tampered = await get(POSITIONS, { ...ALL_TIME, limit: '2', nextCursor: forged });
      expect(tampered.status).toBe(400);
      expect(tampered.body).toEqual({
        status: 'error',
        message: 'Invalid parameters: nextCursor',
        errors: [
          {
            field: 'nextCursor',
            message: 'nextCursor is not a cursor this list issued (signature does not match); start again without it',
          },
        ],
      });
      const otherWindow = await get(POSITIONS, { start: iso(0), end: ALL_TIME.end, limit: '2', nextCursor: first.body.nextCursor });
      expect(otherWindow.status).toBe(400);
      expect(otherWindow.body).toEqual({
        status: 'error',
        message: 'Invalid parameters: nextCursor',
        errors: [
          { field: 'nextCursor', message: 'nextCursor continues another window: send the same start and end as the first page, or none' },
        ],
      });
    });

    it.each([
      ['?address=0x123', 'address', 'each address must be 0x followed by 40 hex digits', 'address=0x123'],
      [
        'a list with one bad address',
        'address',
        'each address must be 0x followed by 40 hex digits',
        `address=${hex40('a1')},0xzz${'0'.repeat(38)}`,
      ],
      ['an empty address', 'address', 'each address must be 0x followed by 40 hex digits', 'address='],
      [
        '101 addresses',
        'address',
        'address must name at most 100 wallets',
        `address=${Array.from({ length: 101 }, (_, i) => hex40(i.toString(16))).join(',')}`,
      ],
      ['?open=yes', 'open', 'open must be true or false', 'open=yes'],
      ['?open=1', 'open', 'open must be true or false', 'open=1'],
      ['?limit=0', 'limit', 'limit must not be less than 1', 'limit=0'],
      ['?limit=501', 'limit', 'limit must not be greater than 500', 'limit=501'],
      ['?limit=ten', 'limit', 'limit must be an integer number', 'limit=ten'],
      [
        '?start=yesterday',
        'start',
        'start must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)',
        'start=yesterday',
      ],
      [
        '?end=2026-13-01T00:00:00Z',
        'end',
        'end must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)',
        'end=2026-13-01T00:00:00Z',
      ],
      ['an end before start', 'end', 'end must not be before start', `start=${iso(60)}&end=${iso(0)}`],
      ['?segmentId=1.5', 'segmentId', 'segmentId must be an integer number', 'segmentId=1.5'],
      ['?segmentId=whale', 'segmentId', 'segmentId must be an integer number', 'segmentId=whale'],
      ['?side=long', 'side', 'property side should not exist', 'side=long'],
    ])('answers %s with a 400 naming %s', async (_label, field, message, query) => {
      const res = await suite.api.get(`${POSITIONS}?${query}`, suite.token);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message: `Invalid parameters: ${field}`, errors: [{ field, message }] });
    });

    it('answers an unknown coin or cohort with a 404', async () => {
      const coin = await get(POSITIONS, { coin: 'DOGE' });
      expect(coin.status).toBe(404);
      expect(coin.body).toEqual({ status: 'error', message: 'Unknown coin: DOGE' });
      for (const id of ['0', '17', '-1']) {
        const cohort = await get(POSITIONS, { segmentId: id });
        expect(cohort.status).toBe(404);
        expect(cohort.body).toEqual({ status: 'error', message: `Unknown segment: ${id}` });
      }
    });

    it('needs the bearer token', async () => {
      const res = await suite.api.get(POSITIONS);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', message: 'Unauthorized' });
    });
  });
});
