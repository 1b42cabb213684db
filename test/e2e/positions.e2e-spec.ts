import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import type { PositionStateRecord, WalletStateRecord } from '#exchange';
import { ExchangeFactsWriter, MarketStateWriter } from '#market';
import { exchangeState, feed, fillsBlock, positionState, startedWriter, walletState, wireFill } from '#testing';
import { ApiHarness } from '../support/api-harness.js';

const POSITIONS = '/api/external/positions';
const HISTORY = (coin: string) => `/api/external/coin/${encodeURIComponent(coin)}/open-positions/history`;

// 2026-01-10T00:00:00Z lies on a 2-hour UTC boundary; every time below is minutes after it.
const T0 = Date.UTC(2026, 0, 10);
const MIN = 60_000;
const at = (minutes: number) => T0 + minutes * MIN;
const iso = (minutes: number) => new Date(at(minutes)).toISOString();

/**
 * The state updates, in minutes after T0: hourly first (the window cases), then irregular, with gaps
 * longer than 2 hours, one update exactly on a boundary (6:00, 22:00), spanning 30 hours.
 */
const UPDATES = [0, 60, 120, 180, 240, 255, 350, 360, 370, 570, 780, 1245, 1320, 1565, 1679, 1820];
const LAST = UPDATES.length - 1;

const hex40 = (tag: string) => `0x${tag.padStart(40, '0')}`;
// Size cohort by perp equity, pnl cohort by all-time PnL (the API contract's table).
const A = { address: hex40('a1'), perpEquity: '5000', allTimePnl: '100' }; // Fish (1), Humble Earner (11)
const B = { address: hex40('b2'), perpEquity: '20000', allTimePnl: '50000' }; // Dolphin (2), Consistent Grinder (10)
const C = { address: hex40('c3'), perpEquity: '100', allTimePnl: '-500' }; // Shrimp (16), Exit Liquidity (12)
const W = { address: hex40('d4'), perpEquity: '600000', allTimePnl: '2000000' }; // Whale (5), Money Printer (8)
const WALLETS = [A, B, C, W];

/** A stretch of one wallet on one coin and side: shown by the updates from index `from` up to, not including, `until`. */
interface Stint {
  wallet: (typeof WALLETS)[number];
  coin: string;
  from: number;
  until?: number;
  /** The position as update `i` shows it. */
  state: (i: number) => Partial<PositionStateRecord>;
  /** Worked out by hand from entry, value / |size| (the mark) and liquidation price: (entry - mark) / (entry - liq), clamped to [0, 1], 6 places. */
  progress: number | null;
  /** The opening fill's time, when one is stored (else the open time is the first update showing it). */
  openedByFillAt?: number;
}

const STINTS = {
  // Long 0.5 from 60000, mark 58000, liquidation 40000: 2000 / 20000 = 0.1. Opened by a fill 10 minutes before T0.
  a1: {
    wallet: A,
    coin: 'BTC',
    from: 0,
    until: 2,
    progress: 0.1,
    openedByFillAt: at(-10),
    state: () => ({
      szi: '0.5',
      entryPx: '60000',
      positionValue: '29000',
      unrealizedPnl: '-1000',
      liquidationPx: '40000',
      leverage: 10,
      marginUsed: '2900',
      fundingSinceOpen: '-2.5',
    }),
  },
  // Short 2 from 3000, mark 3100, liquidation 3500: -100 / -500 = 0.2.
  a2: {
    wallet: A,
    coin: 'ETH',
    from: 0,
    until: 1,
    progress: 0.2,
    state: () => ({
      szi: '-2',
      entryPx: '3000',
      positionValue: '6200',
      unrealizedPnl: '-200',
      liquidationPx: '3500',
      leverage: 5,
      marginUsed: '1240',
      fundingSinceOpen: '1.25',
    }),
  },
  a3: {
    wallet: A,
    coin: 'HYPE',
    from: 2,
    progress: null,
    state: () => ({
      szi: '100',
      entryPx: '25',
      positionValue: '2600',
      unrealizedPnl: '100',
      liquidationPx: null,
      leverageType: 'isolated',
      leverage: 3,
      marginUsed: '866.67',
      fundingSinceOpen: '0',
    }),
  },
  // Short 1 from 61000, mark 60000 (in profit), liquidation 80000: 1000 / -19000 < 0, clamped to 0. Flipped long at update 1.
  b1: {
    wallet: B,
    coin: 'BTC',
    from: 0,
    until: 1,
    progress: 0,
    state: () => ({
      szi: '-1',
      entryPx: '61000',
      positionValue: '60000',
      unrealizedPnl: '1000',
      liquidationPx: '80000',
      leverage: 5,
      marginUsed: '12000',
      fundingSinceOpen: '3',
    }),
  },
  // Long 1.5 from 60500, mark 60000, liquidation 50000: 500 / 10500 = 0.0476190476... -> 0.047619.
  b2: {
    wallet: B,
    coin: 'BTC',
    from: 1,
    progress: 0.047619,
    state: () => ({
      szi: '1.5',
      entryPx: '60500',
      positionValue: '90000',
      unrealizedPnl: '-750',
      liquidationPx: '50000',
      leverage: 5,
      marginUsed: '18000',
      fundingSinceOpen: '-0.75',
    }),
  },
  b3: {
    wallet: B,
    coin: 'ETH',
    from: 3,
    progress: null,
    state: () => ({
      szi: '3',
      entryPx: '3100',
      positionValue: '9300',
      unrealizedPnl: '0',
      liquidationPx: null,
      leverage: 5,
      marginUsed: '1860',
      fundingSinceOpen: '0',
    }),
  },
  // Long 10 from 150, mark 140, liquidation 120: 10 / 30 = 0.333333.
  c1: {
    wallet: C,
    coin: 'SOL',
    from: 0,
    until: 3,
    progress: 0.333333,
    state: () => ({
      szi: '10',
      entryPx: '150',
      positionValue: '1400',
      unrealizedPnl: '-100',
      liquidationPx: '120',
      leverage: 5,
      marginUsed: '280',
      fundingSinceOpen: '-0.5',
    }),
  },
  // Long 10 from 60000, marked up 100 an update (in profit: progress 0); its value changes at every update.
  w1: {
    wallet: W,
    coin: 'BTC',
    from: 0,
    progress: 0,
    state: (i: number) => ({
      szi: '10',
      entryPx: '60000',
      positionValue: `${600000 + 1000 * i}`,
      unrealizedPnl: `${1000 * i}`,
      liquidationPx: '30000',
      leverage: 20,
      marginUsed: '30000',
      fundingSinceOpen: '-12.3456',
    }),
  },
  w2: {
    wallet: W,
    coin: 'xyz:TSLA',
    from: 0,
    progress: null,
    state: () => ({
      szi: '50',
      entryPx: '400',
      positionValue: '20500',
      unrealizedPnl: '500',
      liquidationPx: null,
      leverageType: 'isolated',
      leverage: 2,
      marginUsed: '10250',
      fundingSinceOpen: '0',
    }),
  },
  // Short 20 from 160, mark 155 (in profit), liquidation 200: 5 / -40 < 0, clamped to 0.
  w3: {
    wallet: W,
    coin: 'SOL',
    from: 9,
    until: 11,
    progress: 0,
    state: (i: number) => ({
      szi: '-20',
      entryPx: '160',
      positionValue: `${3100 + 10 * (i - 9)}`,
      unrealizedPnl: '100',
      liquidationPx: '200',
      leverage: 4,
      marginUsed: '775',
      fundingSinceOpen: '0.1',
    }),
  },
} satisfies Record<string, Stint>;
type Key = keyof typeof STINTS;
const KEYS = Object.keys(STINTS) as Key[];

const shownAt = (s: Stint, i: number) => i >= s.from && (s.until === undefined || i < s.until);

function walletsAt(i: number): WalletStateRecord[] {
  return WALLETS.map((w) =>
    walletState(w.address, {
      perpEquity: w.perpEquity,
      allTimePnl: w.allTimePnl,
      positions: Object.values(STINTS)
        .filter((s: Stint) => s.wallet === w && shownAt(s, i))
        .map((s: Stint) => positionState(s.coin, s.state(i))),
    }),
  );
}

interface PositionBody {
  id: number;
  address: string;
  coin: string;
  dex: string;
  side: 'long' | 'short';
  size: number;
  value: number;
  entryPrice: number;
  unrealizedPnl: number;
  funding: number;
  liquidationPrice: number | null;
  liquidationProgress: number | null;
  leverageType: string;
  leverage: number;
  marginUsed: number;
  openTime: string;
  closeTime: string | null;
  createdAt: string;
  updatedAt: string;
}

describe('positions routes', () => {
  let api: ApiHarness;
  let token: string;
  let dataSource: DataSource;
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

  const get = (path: string, query: Record<string, string | string[]> = {}) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) for (const v of [value].flat()) params.append(name, v);
    const qs = params.toString();
    return api.get(qs ? `${path}?${qs}` : path, token);
  };
  const ALL_TIME = { start: iso(-60), end: iso(UPDATES[LAST]! + 60) };

  beforeAll(async () => {
    api = await ApiHarness.start();
    ({ token } = await api.createConsumer({ name: 'positions-suite' }));
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
    // A's BTC long opens with a stored fill 10 minutes before the first update that shows it.
    const facts = await startedWriter(dataSource, ExchangeFactsWriter);
    await facts.writeBlocks(
      feed([fillsBlock(1, at(-10), [[A.address, wireFill({ coin: 'BTC', px: '60000', sz: '0.5', side: 'B', time: at(-10), tid: 1 })]])]),
      'node',
    );
    const states = await startedWriter(dataSource, MarketStateWriter);
    for (const [i, minutes] of UPDATES.entries()) await states.apply(exchangeState(100 + i, at(minutes), walletsAt(i)));

    const rows: Array<{ id: string; address: string; coin: string; open_ms: string }> = await dataSource.query(
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

  afterAll(async () => {
    await dataSource?.destroy();
    await api?.close();
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
      const res = await api.get(`${POSITIONS}?${query}`, token);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message: `Invalid parameters: ${field}`, errors: [{ field, message }] });
    });

    it('answers an unknown coin or cohort with a 404', async () => {
      const coin = await get(POSITIONS, { coin: 'DOGE' });
      expect(coin.status).toBe(404);
      expect(coin.body).toEqual({ status: 'error', message: 'Unknown coin: DOGE' });
      for (const id of ['0', '17', '-1']) {
        const segment = await get(POSITIONS, { segmentId: id });
        expect(segment.status).toBe(404);
        expect(segment.body).toEqual({ status: 'error', message: `Unknown segment: ${id}` });
      }
    });

    it('needs the bearer token', async () => {
      const res = await api.get(POSITIONS);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', message: 'Unauthorized' });
    });
  });

  describe('GET /api/external/coin/{coin}/open-positions/history', () => {
    /** Every open position of `coin` at update `i`, summed from the seeded states with big.js. */
    function row(coin: string, i: number): [string, string, number, number, number, number] {
      const open = Object.values(STINTS)
        .filter((s: Stint) => s.coin === coin && shownAt(s, i))
        .map((s: Stint) => positionState(s.coin, s.state(i)));
      const long = open.filter((p) => !p.szi.startsWith('-'));
      const sum = (ps: PositionStateRecord[]) => ps.reduce((total, p) => total.plus(p.positionValue), new Big(0));
      return [coin, iso(UPDATES[i]!), open.length, long.length, Number(sum(open)), Number(sum(long))];
    }

    const COLUMNS = ['coin', 'timestamp', 'positionCount', 'positionCountLong', 'totalPositionValue', 'totalPositionValueLong'];

    // The latest update (30:20), then the newest update at or before each 2-hour boundary going back:
    // 30:00 -> 27:59 (28:00 the same), 26:00 -> 22:00 (26:05 is never a row: 27:59 is newer in its stretch; 24:00 and
    // 22:00 the same), 20:00 -> 13:00 (18:00 .. 14:00 the same), 12:00 -> 9:30 (10:00 the same), 8:00 -> 6:10,
    // 6:00 -> 6:00 (on the boundary; 5:50 is never a row), 4:00 -> 4:00 (4:15 is not), 2:00, 0:00. 1:00 and 3:00 are not.
    const SAMPLED = [1820, 1679, 1320, 780, 570, 370, 360, 240, 120, 0];
    const index = (minutes: number) => UPDATES.indexOf(minutes);

    it('samples the latest update, then one every 2 hours, with every open position of the coin', async () => {
      const res = await get(HISTORY('BTC'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ coin: 'BTC', metrics: { columns: COLUMNS, data: SAMPLED.map((m) => row('BTC', index(m))) } });
      // Worked by hand for two rows: at 30:20 (update 15) b2 (90000) and w1 (615000), both long; at 0:00 a1 29000
      // (long), b1 60000 (short) and w1 600000 (long).
      expect(res.body.metrics.data[0]).toEqual(['BTC', '2026-01-11T06:20:00.000Z', 2, 2, 705000, 705000]);
      expect(res.body.metrics.data.at(-1)).toEqual(['BTC', '2026-01-10T00:00:00.000Z', 3, 2, 689000, 629000]);
    });

    it('gives a row of zeros for an update where nobody held the coin', async () => {
      const res = await get(HISTORY('sol'));
      expect(res.status).toBe(200);
      expect(res.body.coin).toBe('SOL');
      expect(res.body.metrics.data).toEqual(SAMPLED.map((m) => row('SOL', index(m))));
      // c1 (long 1400) until 3:00, w3 (short) at 9:30 and 13:00, nobody at the other sampled updates.
      expect(res.body.metrics.data.map((r: unknown[]) => r.slice(1))).toEqual([
        ['2026-01-11T06:20:00.000Z', 0, 0, 0, 0],
        ['2026-01-11T03:59:00.000Z', 0, 0, 0, 0],
        ['2026-01-10T22:00:00.000Z', 0, 0, 0, 0],
        ['2026-01-10T13:00:00.000Z', 1, 0, 3110, 0],
        ['2026-01-10T09:30:00.000Z', 1, 0, 3100, 0],
        ['2026-01-10T06:10:00.000Z', 0, 0, 0, 0],
        ['2026-01-10T06:00:00.000Z', 0, 0, 0, 0],
        ['2026-01-10T04:00:00.000Z', 0, 0, 0, 0],
        ['2026-01-10T02:00:00.000Z', 1, 1, 1400, 1400],
        ['2026-01-10T00:00:00.000Z', 1, 1, 1400, 1400],
      ]);
    });

    it('limits the rows and bounds them by start and end, inclusive', async () => {
      expect((await get(HISTORY('BTC'), { limit: '3' })).body.metrics.data).toEqual([1820, 1679, 1320].map((m) => row('BTC', index(m))));
      // end on an update (22:00) makes it the latest row; start 5:00 drops 4:00 and older.
      const bounded = await get(HISTORY('BTC'), { start: iso(300), end: iso(1320) });
      expect(bounded.body.metrics.data).toEqual([1320, 780, 570, 370, 360].map((m) => row('BTC', index(m))));
      // end between updates (21:00): the latest row is the newest before it (20:45), which the full series does not show.
      const between = await get(HISTORY('BTC'), { end: iso(1260), limit: '2' });
      expect(between.body.metrics.data).toEqual([1245, 780].map((m) => row('BTC', index(m))));
      // start exactly on an update keeps it.
      expect((await get(HISTORY('BTC'), { start: iso(120), end: iso(260) })).body.metrics.data).toEqual(
        [255, 240, 120].map((m) => row('BTC', index(m))),
      );
      expect((await get(HISTORY('BTC'), { start: iso(1821) })).body.metrics.data).toEqual([]);
    });

    it('documents both routes and their parameters in the OpenAPI document', async () => {
      const doc = (await api.http.get('/docs-json')).body as {
        paths: Record<string, { get: { parameters: Array<{ name: string; in: string }> } }>;
      };
      const params = (path: string) => doc.paths[path]!.get.parameters.map((p) => `${p.in}:${p.name}`).sort();
      expect(params('/api/external/coin/{coin}/open-positions/history')).toEqual(['path:coin', 'query:end', 'query:limit', 'query:start']);
      expect(params('/api/external/positions')).toEqual([
        'query:address',
        'query:coin',
        'query:end',
        'query:limit',
        'query:nextCursor',
        'query:open',
        'query:segmentId',
        'query:start',
      ]);
    });

    it('answers an unknown coin with a 404 and bad parameters with a 400 naming the field', async () => {
      const unknown = await get(HISTORY('DOGE'));
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ status: 'error', message: 'Unknown coin: DOGE' });
      for (const [query, field, message] of [
        ['limit=0', 'limit', 'limit must not be less than 1'],
        ['limit=501', 'limit', 'limit must not be greater than 500'],
        ['start=soon', 'start', 'start must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)'],
        [`start=${iso(60)}&end=${iso(0)}`, 'end', 'end must not be before start'],
        ['nextCursor=abc', 'nextCursor', 'property nextCursor should not exist'],
      ]) {
        const res = await api.get(`${HISTORY('BTC')}?${query}`, token);
        expect([query, res.status]).toEqual([query, 400]);
        expect(res.body).toEqual({ status: 'error', message: `Invalid parameters: ${field}`, errors: [{ field, message }] });
      }
    });
  });
});
