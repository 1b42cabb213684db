import { describe, expect, it } from '@jest/globals';
import {
  SUMMARY,
  LIST,
  EDGE,
  iso,
  closedIn,
  DAY,
  W,
  FLAT,
  NOBODY,
  mixedCase,
  ofWallet,
  summaryBody,
  badRequest,
  seedClosedTrades,
} from '../support/closed-trades.fixture.js';
import { useSeededApi } from '../support/seeded-api.js';

describe('Closed trades', () => {
  const suite = useSeededApi({ name: 'closed-trades-suite', rateLimitPerMinute: 100_000 }, seedClosedTrades);
  const { get } = suite;

  describe('GET /api/external/closed-trades/summary', () => {
    it('summarizes all closed trades by default, overall and per coin, every figure recomputed', async () => {
      const res = await get(`${SUMMARY}?address=${mixedCase(W)}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(summaryBody(W, 'all', ofWallet(W)));
      expect(res.body.data.byCoin.map((c: { coin: string }) => c.coin)).toEqual(['BTC', 'DOGE', 'ETH', 'SOL', 'xyz:TSLA']);
      expect((await get(`${SUMMARY}?address=${W}&interval=all`)).body).toEqual(res.body);
    });

    it('gives each record exactly the design fields, and null ratios where nothing divides', async () => {
      const { data } = (await get(`${SUMMARY}?address=${W}`)).body;
      const fields = [
        'tradeCount',
        'winCount',
        'lossCount',
        'winRate',
        'longCount',
        'shortCount',
        'longWinRate',
        'shortWinRate',
        'realizedPnlUsd',
        'grossProfitUsd',
        'grossLossUsd',
        'feesUsd',
        'fundingUsd',
        'volumeUsd',
        'avgSizeUsd',
        'avgDurationMs',
        'medianDurationMs',
        'profitFactor',
        'payoffRatio',
        'expectancyUsd',
        'largestWinUsd',
        'largestLossUsd',
      ];
      expect(Object.keys(data).sort()).toEqual(['address', 'byCoin', 'interval', 'summary']);
      expect(Object.keys(data.summary).sort()).toEqual([...fields].sort());
      for (const coin of data.byCoin) expect(Object.keys(coin).sort()).toEqual(['coin', ...fields].sort());
      // SOL only won: no loss to divide by.
      const sol = data.byCoin.find((c: { coin: string }) => c.coin === 'SOL');
      expect(sol).toMatchObject({ lossCount: 0, grossLossUsd: 0, profitFactor: null, payoffRatio: null, largestLossUsd: null });
      expect(sol.winCount).toBeGreaterThan(0);
      // DOGE only lost (its one partial long): a profit factor of 0, no payoff ratio, no largest win, no short trades.
      expect(data.byCoin.find((c: { coin: string }) => c.coin === 'DOGE')).toEqual({
        coin: 'DOGE',
        tradeCount: 1,
        winCount: 0,
        lossCount: 1,
        winRate: 0,
        longCount: 1,
        shortCount: 0,
        longWinRate: 0,
        shortWinRate: null,
        realizedPnlUsd: -10,
        grossProfitUsd: 0,
        grossLossUsd: -10.1,
        feesUsd: 0.1,
        fundingUsd: 0,
        volumeUsd: 190,
        avgSizeUsd: 0,
        avgDurationMs: 0,
        medianDurationMs: 0,
        profitFactor: 0,
        payoffRatio: null,
        expectancyUsd: -10.1,
        largestWinUsd: null,
        largestLossUsd: -10.1,
      });
    });

    it('counts a trade whose net result is exactly zero as neither win nor loss', async () => {
      const res = await get(`${SUMMARY}?address=${FLAT}`);
      expect(res.body).toEqual(summaryBody(FLAT, 'all', ofWallet(FLAT)));
      expect(res.body.data.summary).toMatchObject({
        tradeCount: 2,
        winCount: 0,
        lossCount: 0,
        winRate: 0,
        grossProfitUsd: 0,
        grossLossUsd: 0,
        profitFactor: null,
        payoffRatio: null,
        expectancyUsd: 0,
        largestWinUsd: null,
        largestLossUsd: null,
      });
    });

    it.each([
      ['365d', 365],
      ['180d', 180],
      ['90d', 90],
      ['30d', 30],
    ])('summarizes the trades closed in the last %s', async (interval, days) => {
      const since = Date.now() - days * DAY;
      const inside = ofWallet(W, (t) => t.closeTime >= since);
      expect(inside.length).toBeLessThan(ofWallet(W).length);
      expect((await get(`${SUMMARY}?address=${W}&interval=${interval}`)).body).toEqual(summaryBody(W, interval, inside));
    });

    it('counts as wins exactly its own listed trades marked win, over the same 30 days, edge cases included', async () => {
      type Listed = {
        hash: string;
        coin: string;
        realizedPnlUsd: number;
        feeUsd: number;
        fundingUsd: number;
        netPnlUsd: number;
        outcome: string;
      };
      for (const wallet of [W, EDGE]) {
        const now = Date.now();
        const summary = (await get(`${SUMMARY}?address=${wallet}&interval=30d`)).body.data;
        const list = await get(`${LIST}?address=${wallet}&startTime=${iso(now - 30 * DAY)}&endTime=${iso(now)}&limit=500`);
        const listed: Listed[] = list.body.trades;
        expect(list.body.nextCursor).toBeNull();
        expect(listed.map((t) => t.hash)).toEqual(ofWallet(wallet, closedIn(now - 30 * DAY, now)).map((t) => t.hash));
        const count = (trades: Listed[], outcome: string) => trades.filter((t) => t.outcome === outcome).length;
        expect([summary.summary.tradeCount, summary.summary.winCount, summary.summary.lossCount]).toEqual([
          listed.length,
          count(listed, 'win'),
          count(listed, 'loss'),
        ]);
        for (const coin of summary.byCoin) {
          const ofCoin = listed.filter((t) => t.coin === coin.coin);
          expect([coin.coin, coin.winCount, coin.lossCount]).toEqual([coin.coin, count(ofCoin, 'win'), count(ofCoin, 'loss')]);
        }
      }
      // The edge cases, newest first: a win; a net of exactly 0 that the listed numbers, added as doubles,
      // would call a win; a gross gain that the fees make a loss. The summary counts one win and one loss.
      const now = Date.now();
      const edge: Listed[] = (await get(`${LIST}?address=${EDGE}&startTime=${iso(now - 30 * DAY)}&endTime=${iso(now)}`)).body.trades;
      expect(edge.map((t) => [t.realizedPnlUsd, t.netPnlUsd, t.outcome])).toEqual([
        [5, 5, 'win'],
        [0.1, 0, 'even'],
        [0.1, -1, 'loss'],
      ]);
      expect(edge.map((t) => t.realizedPnlUsd - t.feeUsd + t.fundingUsd > 0)).toEqual([true, true, false]);
      expect((await get(`${SUMMARY}?address=${EDGE}&interval=30d`)).body.data.summary).toMatchObject({
        tradeCount: 3,
        winCount: 1,
        lossCount: 1,
      });
      expect((await get(`${SUMMARY}?address=${EDGE}&interval=90d`)).body.data.summary).toMatchObject({
        tradeCount: 4,
        winCount: 2,
        lossCount: 1,
      });
    });

    it('summarizes the 50 latest closed trades for last50', async () => {
      const latest = ofWallet(W).slice(0, 50);
      expect((await get(`${SUMMARY}?address=${W}&interval=last50`)).body).toEqual(summaryBody(W, 'last50', latest));
      expect((await get(`${SUMMARY}?address=${FLAT}&interval=last50`)).body).toEqual(summaryBody(FLAT, 'last50', ofWallet(FLAT)));
    });

    it('gives zeros and nulls and no coins for a wallet without trades', async () => {
      const res = await get(`${SUMMARY}?address=${NOBODY}&interval=90d`);
      expect(res.body).toEqual({
        status: 'success',
        data: {
          address: NOBODY,
          interval: '90d',
          summary: {
            tradeCount: 0,
            winCount: 0,
            lossCount: 0,
            winRate: null,
            longCount: 0,
            shortCount: 0,
            longWinRate: null,
            shortWinRate: null,
            realizedPnlUsd: 0,
            grossProfitUsd: 0,
            grossLossUsd: 0,
            feesUsd: 0,
            fundingUsd: 0,
            volumeUsd: 0,
            avgSizeUsd: null,
            avgDurationMs: null,
            medianDurationMs: null,
            profitFactor: null,
            payoffRatio: null,
            expectancyUsd: null,
            largestWinUsd: null,
            largestLossUsd: null,
          },
          byCoin: [],
        },
      });
    });

    it.each([
      ['', 'address', 'address is required'],
      ['address=abc', 'address', 'address must be a 0x address of 40 hex digits'],
      [`address=${W}&interval=7d`, 'interval', 'interval must be one of the following values: all, 365d, 180d, 90d, 30d, last50'],
      [`address=${W}&interval=LAST50`, 'interval', 'interval must be one of the following values: all, 365d, 180d, 90d, 30d, last50'],
      [`address=${W}&limit=10`, 'limit', 'property limit should not exist'],
    ])('answers ?%s with a 400 naming the field', async (query, field, message) => {
      const res = await get(`${SUMMARY}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest(field, message));
    });

    it('needs the bearer token', async () => {
      const res = await suite.api.get(`${SUMMARY}?address=${W}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', message: 'Unauthorized' });
    });
  });
});
