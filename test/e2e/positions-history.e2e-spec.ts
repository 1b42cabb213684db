import { describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import type { PositionStateRecord } from '#exchange';
import { positionState } from '#testing';
import { HISTORY, iso, UPDATES, type Stint, STINTS, shownAt, seedPositions, getWithQuery } from '../support/positions.fixture.js';
import { useSeededApi } from '../support/seeded-api.js';

describe('positions routes', () => {
  const suite = useSeededApi({ name: 'positions-suite' }, seedPositions);
  const get = getWithQuery(suite);

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
      const doc = (await suite.api.http.get('/docs-json')).body as {
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
        const res = await suite.api.get(`${HISTORY('BTC')}?${query}`, suite.token);
        expect([query, res.status]).toEqual([query, 400]);
        expect(res.body).toEqual({ status: 'error', message: `Invalid parameters: ${field}`, errors: [{ field, message }] });
      }
    });
  });
});
