import { beforeAll, describe, expect, it } from '@jest/globals';
import { address } from '#testing';
import {
  BASE,
  MIN,
  iso,
  END,
  FIRST,
  SNAPSHOT_TIMES,
  MID,
  WALLETS,
  BUILDER,
  TRIGGER_TYPES,
  expectedAt,
  type OpenOrder,
  notFound,
  NO_SNAPSHOT,
  useBookSuite,
  writeThreeHours,
} from '../support/order-snapshots.fixture.js';

describe('Order snapshots', () => {
  const { suite, book, scenario, walk } = useBookSuite();
  const { get } = suite;

  describe('before any snapshot', () => {
    it('answers 404 saying no snapshot was taken yet', async () => {
      const stamp = await get(`${BASE}/latest-snapshot-timestamp`);
      expect(stamp.status).toBe(404);
      expect(stamp.body).toEqual(NO_SNAPSHOT);
      const latest = await get(`${BASE}/latest`);
      expect(latest.status).toBe(404);
      expect(latest.body).toEqual(NO_SNAPSHOT);
      const at = await get(`${BASE}/${iso(END)}`);
      expect(at.status).toBe(404);
      expect(at.body).toEqual(notFound(`No order snapshot was taken at ${iso(END)}`));
    });
  });

  describe('with three hours of blocks', () => {
    beforeAll(() => writeThreeHours(book));

    it('rebuilds a busy book: the scenario covers every case', () => {
      const all = SNAPSHOT_TIMES.flatMap((t) => expectedAt(scenario.blocks, t));
      expect(new Set(all.map((o) => o.orderType))).toEqual(new Set(['Limit', ...TRIGGER_TYPES]));
      expect(all.some((o) => o.sz < o.origSz)).toBe(true);
      expect(all.some((o) => o.builder === BUILDER) && all.some((o) => o.builder === '')).toBe(true);
      expect(all.some((o) => o.children.length > 0)).toBe(true);
      expect(expectedAt(scenario.blocks, END).length).toBeGreaterThan(200);
      expect(expectedAt(scenario.blocks, END).length).toBeLessThan(500);
    });

    it('gives the newest snapshot time as a bare JSON string', async () => {
      const res = await get(`${BASE}/latest-snapshot-timestamp`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.text).toBe(JSON.stringify(iso(END)));
      expect(res.body).toBe(iso(END));
    });

    it('answers /latest with the whole book at the newest snapshot, 100 orders a page by default', async () => {
      const expected = expectedAt(scenario.blocks, END);
      const first = await get(`${BASE}/latest`);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        orders: expected.slice(0, 100),
        nextCursor: expect.stringMatching(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/),
      });
      const seen = [...first.body.orders];
      let cursor: string | null = first.body.nextCursor;
      while (cursor !== null) {
        const res = await get(`${BASE}/latest?nextCursor=${encodeURIComponent(cursor)}`);
        expect(res.body.orders.length).toBeLessThanOrEqual(100);
        seen.push(...res.body.orders);
        cursor = res.body.nextCursor;
      }
      expect(seen).toEqual(expected);
      expect((await get(`${BASE}/latest?limit=500`)).body).toEqual({ orders: expected, nextCursor: null });
      // Orders placed in the first minutes of the feed are still in the book three hours later.
      expect(seen.some((o) => Date.parse(o.timestamp) < FIRST + 10 * MIN)).toBe(true);
    });

    it('answers every snapshot with the book rebuilt from the statuses and fills written', async () => {
      for (const t of SNAPSHOT_TIMES) {
        const res = await get(`${BASE}/${iso(t)}?limit=500`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ orders: expectedAt(scenario.blocks, t), nextCursor: null });
      }
      // The full book at T, whenever the orders were placed: the orders of the first block, three hours old by the last snapshot, are in every one.
      expect(scenario.resting.size).toBe(3);
      for (const t of [SNAPSHOT_TIMES[0]!, MID, END]) {
        const res = await get(`${BASE}/${iso(t)}?limit=500`);
        const resting = (res.body.orders as OpenOrder[]).filter((o) => scenario.resting.has(o.oid));
        expect(resting.map((o) => o.oid).sort()).toEqual([...scenario.resting].sort());
        expect(resting.every((o) => Date.parse(o.timestamp) <= FIRST)).toBe(true);
      }
    });

    it('walks every page of a past snapshot, each order exactly once', async () => {
      const expected = expectedAt(scenario.blocks, MID);
      const seen = await walk(`${BASE}/${iso(MID)}`, 37);
      expect(seen).toEqual(expected);
      expect(new Set(seen.map((o) => `${o.address}/${o.oid}`)).size).toBe(expected.length);
      expect(await walk(`${BASE}/${iso(MID)}`, 5)).toEqual(expected);
    });

    it('filters by coin in any case, a HIP-3 market included; a known market without orders is empty, an unknown one a 404', async () => {
      const expected = expectedAt(scenario.blocks, MID);
      for (const [spelling, coin] of [
        ['btc', 'BTC'],
        ['Eth', 'ETH'],
        ['SOL', 'SOL'],
        ['XYZ:tsla', 'xyz:TSLA'],
      ]) {
        const res = await get(`${BASE}/${iso(MID)}?coin=${encodeURIComponent(spelling!)}&limit=500`);
        expect(res.body).toEqual({ orders: expected.filter((o) => o.coin === coin), nextCursor: null });
        expect(res.body.orders.length).toBeGreaterThan(0);
      }
      const latestEth = await walk(`${BASE}/latest?coin=eth`, 20);
      expect(latestEth).toEqual(expectedAt(scenario.blocks, END).filter((o) => o.coin === 'ETH'));
      const unknown = await get(`${BASE}/${iso(MID)}?coin=NOPE`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(notFound('Unknown coin: NOPE'));
      expect((await get(`${BASE}/latest?coin=NOPE`)).status).toBe(404);
    });

    it('filters by the wallet spelt in any case, and by one order id', async () => {
      const expected = expectedAt(scenario.blocks, MID);
      const mixed = WALLETS[5]!;
      for (const spelling of [mixed, mixed.toLowerCase(), `0x${mixed.slice(2).toUpperCase()}`]) {
        const res = await get(`${BASE}/${iso(MID)}?address=${spelling}&limit=500`);
        expect(res.body).toEqual({ orders: expected.filter((o) => o.address === mixed.toLowerCase()), nextCursor: null });
        expect(res.body.orders.length).toBeGreaterThan(0);
      }
      const a2 = await get(`${BASE}/${iso(MID)}?address=${WALLETS[1]!.toUpperCase().replace('0X', '0x')}&limit=500`);
      expect(a2.body).toEqual({ orders: expected.filter((o) => o.address === WALLETS[1]), nextCursor: null });
      expect((await get(`${BASE}/${iso(MID)}?address=${address(0x9999)}`)).body).toEqual({ orders: [], nextCursor: null });

      const one = expected[7]!;
      expect((await get(`${BASE}/${iso(MID)}?oid=${one.oid}`)).body).toEqual({ orders: [one], nextCursor: null });
      // An order that left the book before MID (or was never in it) is not in the snapshot.
      const gone = expectedAt(scenario.blocks, SNAPSHOT_TIMES[0]!).find((o) => !expected.some((e) => e.oid === o.oid))!;
      expect((await get(`${BASE}/${iso(MID)}?oid=${gone.oid}`)).body).toEqual({ orders: [], nextCursor: null });
      expect((await get(`${BASE}/${iso(SNAPSHOT_TIMES[0]!)}?oid=${gone.oid}`)).body.orders).toHaveLength(1);
    });

    it('filters by order type, each of the five', async () => {
      const expected = expectedAt(scenario.blocks, MID);
      for (const orderType of ['Limit', ...TRIGGER_TYPES]) {
        const res = await get(`${BASE}/${iso(MID)}?orderType=${encodeURIComponent(orderType)}&limit=500`);
        expect(res.body).toEqual({ orders: expected.filter((o) => o.orderType === orderType), nextCursor: null });
        expect(res.body.orders.length).toBeGreaterThan(0);
      }
    });

    it("filters by the order's creation time, both bounds inclusive", async () => {
      const expected = expectedAt(scenario.blocks, END);
      const times = [...new Set(expected.map((o) => Date.parse(o.timestamp)))].sort((a, b) => a - b);
      const start = times[10]!;
      const end = times[times.length - 10]!;
      const inWindow = (o: OpenOrder) => Date.parse(o.timestamp) >= start && Date.parse(o.timestamp) <= end;
      expect((await get(`${BASE}/latest?start=${iso(start)}&end=${iso(end)}&limit=500`)).body).toEqual({
        orders: expected.filter(inWindow),
        nextCursor: null,
      });
      expect((await get(`${BASE}/latest?start=${iso(start)}&limit=500`)).body.orders).toEqual(
        expected.filter((o) => Date.parse(o.timestamp) >= start),
      );
      expect((await get(`${BASE}/latest?end=${iso(end)}&limit=500`)).body.orders).toEqual(
        expected.filter((o) => Date.parse(o.timestamp) <= end),
      );
      // One millisecond inside each bound leaves out the orders on it.
      const inner = await get(`${BASE}/latest?start=${iso(start + 1)}&end=${iso(end - 1)}&limit=500`);
      expect(inner.body.orders).toEqual(expected.filter((o) => Date.parse(o.timestamp) > start && Date.parse(o.timestamp) < end));
      // A time without a zone is UTC; an offset names the same instant.
      const zoneless = iso(start).replace('Z', '');
      expect((await get(`${BASE}/latest?start=${zoneless}&limit=500`)).body.orders).toEqual(
        expected.filter((o) => Date.parse(o.timestamp) >= start),
      );
      const exact = await get(`${BASE}/latest?start=${iso(start)}&end=${iso(start)}`);
      expect(exact.body.orders).toEqual(expected.filter((o) => Date.parse(o.timestamp) === start));
      expect(exact.body.orders.length).toBeGreaterThan(0);
    });

    it('combines every filter, and pages a filtered list', async () => {
      const expected = expectedAt(scenario.blocks, MID);
      const target = expected.find((o) => o.orderType === 'Limit' && o.coin === 'BTC')!;
      const query = `coin=btc&address=${target.address.toUpperCase().replace('0X', '0x')}&orderType=Limit&start=${target.timestamp}&end=${target.timestamp}&oid=${target.oid}`;
      expect((await get(`${BASE}/${iso(MID)}?${query}`)).body).toEqual({ orders: [target], nextCursor: null });
      const filtered = expected.filter((o) => o.coin === 'SOL' && o.orderType === 'Limit');
      expect(filtered.length).toBeGreaterThan(3);
      expect(await walk(`${BASE}/${iso(MID)}?coin=sol&orderType=Limit`, 2)).toEqual(filtered);
      expect((await get(`${BASE}/${iso(MID)}?coin=sol&orderType=Limit&address=${WALLETS[0]}&start=${iso(END + 1)}`)).body).toEqual({
        orders: [],
        nextCursor: null,
      });
    });
  });
});
