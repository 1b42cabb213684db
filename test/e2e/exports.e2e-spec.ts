import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { ExportStore, MarketStateWriter } from '#market';
import { exchangeState, positionState, startedWriter, walletState } from '#testing';
import { ApiHarness } from '../support/api-harness.js';
import { T0, HOUR, A, B, C, HEATMAP, EQUITY, wallets } from '../support/exports.fixture.js';

describe('Exports', () => {
  let api: ApiHarness;
  let token: string;
  let dataSource: DataSource;
  let states: MarketStateWriter;
  let exportDir: string;

  beforeAll(async () => {
    exportDir = mkdtempSync(join(tmpdir(), 'tidewatch-exports-'));
    api = await ApiHarness.start({ env: { EXPORT_DIR: exportDir } });
    ({ token } = await api.createConsumer({ name: 'exports-suite' }));
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
    states = await startedWriter(dataSource, MarketStateWriter);
  });
  afterAll(async () => {
    await dataSource.destroy();
    await api.close();
    rmSync(exportDir, { recursive: true, force: true });
  });

  /** Follows a 302 to the signed link and downloads the file (no token: the signature is the credential). */
  async function download(path: string) {
    const res = await api.get(path, token);
    expect(res.status).toBe(302);
    const location = res.headers.location as string;
    const file = await api.http
      .get(location)
      .buffer(true)
      .parse((r, callback) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (chunk: string) => (text += chunk));
        r.on('end', () => callback(null, text));
      });
    return { location, status: file.status, type: file.headers['content-type'], text: file.body as string };
  }

  it('answers 404 before any state update, naming why', async () => {
    const res = await api.get(EQUITY, token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      status: 'error',
      message: 'No exchange state has been processed yet: exports exist from the first state update on',
    });
  });

  describe('after state updates', () => {
    beforeAll(async () => {
      // Total equity per update = perp equity + HYPE x price; A holds HYPE in the second update.
      await states.apply(exchangeState(100, T0, wallets(), '40'));
      await states.apply(exchangeState(200, T0 + 12 * HOUR, wallets({ hype: '100' }), '50'));
    });

    it('liquidation heatmap: equal bins from 0 past the highest liquidation price, values, counts and the most impacted cohort', async () => {
      const file = await download(HEATMAP);
      expect(file.location).toMatch(/^\/exports\/files\/liquidation-heatmap\/BTC\/200\.json\?expires=\d+&signature=[0-9a-f]{64}$/);
      expect(file.status).toBe(200);
      expect(file.type).toBe('application/json; charset=utf-8');
      // Highest 121,000 -> a hundredth is 1,210 -> width 2,000 (1,000 is too small) -> bins 0..60 (121,000 / 2,000 = 60.5).
      const empty = (i: number) => ({
        coin: 'BTC',
        priceBinIndex: i,
        priceBinStart: i * 2000,
        priceBinEnd: (i + 1) * 2000,
        liquidationValue: 0,
        positionsCount: 0,
        mostImpactedSegment: null,
      });
      const expected: Array<Record<string, unknown>> = Array.from({ length: 61 }, (_, i) => empty(i));
      // A (80,000) and C (80,500) in bin 40: 5,000 + 300; A's cohorts 1 and 11 hold 5,000 each, so the lower id, 1.
      expected[40] = { ...expected[40]!, liquidationValue: 5300, positionsCount: 2, mostImpactedSegment: 1 };
      expected[60] = { ...expected[60]!, liquidationValue: 150000, positionsCount: 1, mostImpactedSegment: 4 };
      expect(JSON.parse(file.text)).toEqual({ coin: 'BTC', heatmap: expected });
    });

    it('takes the coin in any case and writes the file once per state update', async () => {
      const first = await download('/api/external/exports/coins/btc/liquidation-heatmap');
      expect(first.location).toContain('/liquidation-heatmap/BTC/200.json?');
      const written = statSync(join(exportDir, 'liquidation-heatmap', 'BTC', '200.json'));
      const again = await download(HEATMAP);
      expect(again.text).toBe(first.text);
      expect(statSync(join(exportDir, 'liquidation-heatmap', 'BTC', '200.json')).ino).toBe(written.ino);
    });

    it('refuses an unknown coin (404), a request without a token (401) and unknown query fields (400)', async () => {
      expect((await api.get('/api/external/exports/coins/DOGE/liquidation-heatmap', token)).body).toEqual({
        status: 'error',
        message: 'Unknown coin: DOGE',
      });
      expect((await api.get('/api/external/exports/coins/DOGE/liquidation-heatmap', token)).status).toBe(404);
      expect((await api.get(HEATMAP)).status).toBe(401);
      const bad = await api.get(`${HEATMAP}?bins=5`, token);
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([{ field: 'bins', message: 'property bins should not exist' }]);
    });

    it('refuses an altered or expired link with 403, and serves a fresh one', async () => {
      const { location } = await download(HEATMAP);
      const url = new URL(location, 'http://x');
      const signature = url.searchParams.get('signature')!;
      const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
      const invalid = { status: 'error', message: 'This download link is not valid: ask the export route for a new one' };
      const altered = [
        `${url.pathname}?expires=${url.searchParams.get('expires')}&signature=${flipped}`,
        `${url.pathname}?expires=${Number(url.searchParams.get('expires')) + 1}&signature=${signature}`,
        `${url.pathname.replace('200.json', '100.json')}?expires=${url.searchParams.get('expires')}&signature=${signature}`,
        url.pathname,
      ];
      for (const path of altered) {
        const res = await api.http.get(path);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(invalid);
      }
      const expiredLink = await api.app.get(ExportStore).link('liquidation-heatmap/BTC/200.json', Date.now() - 121_000);
      const expired = await api.http.get(expiredLink.url);
      expect(expired.status).toBe(403);
      expect(expired.body).toEqual({ status: 'error', message: 'This download link has expired: ask the export route for a new one' });
      const fresh = await api.app.get(ExportStore).link('liquidation-heatmap/BTC/200.json', Date.now() - 119_000);
      expect((await api.http.get(fresh.url)).status).toBe(200);
    });

    it('total wallets equity: all-time high, 24 hours ago and the history, newest first', async () => {
      // Update 100: 1,000 + 200,000 + 100 = 201,100 (no HYPE). Update 200: the same perp equity plus A's 100 HYPE at 50 = 5,000 spot.
      const first = JSON.parse((await download(EQUITY)).text);
      const row100 = [201100, 201100, 0, 0, null];
      const row200 = [206100, 201100, 5000, 0, null];
      const columns = ['totalWalletsEquity', 'perpWalletsEquity', 'spotWalletsEquity', 'stakingWalletsEquity', 'vaultWalletsEquity'];
      expect(first).toEqual({
        athData: { columns, data: row200 },
        // Less than a day of history: the oldest update stands in for "24 hours ago".
        data24HoursAgo: { columns, data: row100 },
        history: {
          columns: ['timestamp', ...columns],
          data: [
            [new Date(T0 + 12 * HOUR).toISOString(), ...row200],
            [new Date(T0).toISOString(), ...row100],
          ],
        },
      });

      // Update 300, 25 h after the first: A's HYPE gone. 24 h before it is T0 + 1 h, so "24 hours ago" is update 100.
      await states.apply(exchangeState(300, T0 + 25 * HOUR, wallets(), '50'));
      const later = await download(EQUITY);
      expect(later.location).toContain('/wallets-equity/all/300.json?');
      const body = JSON.parse(later.text);
      expect(body.athData.data).toEqual(row200);
      expect(body.data24HoursAgo.data).toEqual(row100);
      expect(body.history.data.map((r: unknown[]) => r[0])).toEqual(
        [T0 + 25 * HOUR, T0 + 12 * HOUR, T0].map((t) => new Date(t).toISOString()),
      );
    });

    it('open positions CSV: a header row and one row per open position of the coin, exact values', async () => {
      const file = await download('/api/external/positions/open/coin/btc');
      expect(file.location).toMatch(/^\/exports\/files\/open-positions\/BTC\/300\.csv\?/);
      expect(file.type).toBe('text/csv; charset=utf-8');
      const [header, ...rows] = parse(file.text) as string[][];
      expect(header).toEqual([
        'id',
        'address',
        'coin',
        'side',
        'dex',
        'size',
        'value',
        'entryPrice',
        'unrealizedPnl',
        'funding',
        'liquidationPrice',
        'liquidationProgress',
        'crossLeverage',
        'isolatedLeverage',
        'openTime',
        'profile_totalEquity',
        'profile_perpEquity',
        'profile_countOpenPositions',
        'profile_pnl',
        'profile_balance',
        'profile_perpPnlSegmentId',
        'profile_sizeSegmentId',
      ]);
      const ids: Array<{ id: string; address: string }> = await dataSource.query(
        `SELECT id::text AS id, address FROM positions WHERE coin = 'BTC' AND close_time IS NULL ORDER BY id`,
      );
      const id = (addr: string) => ids.find((r) => r.address === addr)!.id;
      const opened = new Date(T0).toISOString();
      // Progress = (entry - value / |size|) / (entry - liquidation price): every mark equals entry here, so 0.
      expect(rows).toEqual([
        [
          id(A),
          A,
          'BTC',
          'long',
          'main',
          '0.05',
          '5000',
          '100000',
          '0',
          '0',
          '80000',
          '0',
          '5',
          '',
          opened,
          '1000',
          '1000',
          '2',
          '0',
          '987.5',
          '11',
          '1',
        ],
        [
          id(B),
          B,
          'BTC',
          'short',
          'main',
          '1.5',
          '150000',
          '100000',
          '-250.25',
          '0',
          '121000',
          '0',
          '',
          '10',
          opened,
          '200000',
          '200000',
          '1',
          '20000',
          '200250.25',
          '10',
          '4',
        ],
        [
          id(C),
          C,
          'BTC',
          'long',
          'main',
          '0.003',
          '300',
          '100000',
          '1.1',
          '0',
          '80500',
          '0',
          '20',
          '',
          opened,
          '100',
          '100',
          '1',
          '-500',
          '98.9',
          '12',
          '16',
        ],
      ]);
      expect(rows).toHaveLength(3);
    });

    it('position breakdown by size: each size range now and 24 hours earlier', async () => {
      // Update 400, 26 h after the first: B's short marked at 116,800 (value 175,200, 0.8 of the way to liquidation), C's position closed.
      await states.apply(
        exchangeState(400, T0 + 26 * HOUR, [
          wallets()[0]!,
          walletState(B, {
            perpEquity: '200000',
            allTimePnl: '20000',
            positions: [
              positionState('BTC', {
                szi: '-1.5',
                entryPx: '100000',
                positionValue: '175200',
                unrealizedPnl: '-25200',
                liquidationPx: '121000',
                leverageType: 'isolated',
                leverage: 10,
              }),
            ],
          }),
          walletState(C, { perpEquity: '100', allTimePnl: '-500' }),
        ]),
      );
      const file = await download('/api/external/exports/coins/Btc/position-breakdown-by-size');
      expect(file.location).toContain('/position-breakdown/BTC/400.json?');
      const zero = {
        positionCount: 0,
        pastPositionCount: 0,
        totalPositionValue: 0,
        pastTotalPositionValue: 0,
        totalPositionValueLong: 0,
        pastTotalPositionValueLong: 0,
        totalPositionValueNearLiquidation: 0,
        pastTotalPositionValueNearLiquidation: 0,
      };
      // 24 h before T0 + 26 h is T0 + 2 h: the newest update then is update 100 (A 5,000 and C 300 in 250..10K, B 150,000 in 100K..500K).
      expect(JSON.parse(file.text)).toEqual({
        coin: 'BTC',
        createdAt: new Date(T0 + 26 * HOUR).toISOString(),
        breakdownBySize: [
          { sizeSegmentId: 16, size: '$0 - $250', minSize: 0, maxSize: 250, ...zero },
          {
            sizeSegmentId: 1,
            size: '$250 - $10K',
            minSize: 250,
            maxSize: 10000,
            ...zero,
            positionCount: 1,
            pastPositionCount: 2,
            totalPositionValue: 5000,
            pastTotalPositionValue: 5300,
            totalPositionValueLong: 5000,
            pastTotalPositionValueLong: 5300,
          },
          { sizeSegmentId: 2, size: '$10K - $50K', minSize: 10000, maxSize: 50000, ...zero },
          { sizeSegmentId: 3, size: '$50K - $100K', minSize: 50000, maxSize: 100000, ...zero },
          {
            sizeSegmentId: 4,
            size: '$100K - $500K',
            minSize: 100000,
            maxSize: 500000,
            ...zero,
            positionCount: 1,
            pastPositionCount: 1,
            totalPositionValue: 175200,
            pastTotalPositionValue: 150000,
            totalPositionValueNearLiquidation: 175200,
          },
          { sizeSegmentId: 5, size: '$500K - $1M', minSize: 500000, maxSize: 1000000, ...zero },
          { sizeSegmentId: 6, size: '$1M - $5M', minSize: 1000000, maxSize: 5000000, ...zero },
          { sizeSegmentId: 7, size: '$5M+', minSize: 5000000, maxSize: null, ...zero },
        ],
      });
    });

    it('keys a market of any name the paths take inside the store, colon, slash and dot included', async () => {
      // A coin in a path is letters, digits and `: @ / _ . -` (a quote or a comma is a 400 naming coin).
      const odd = 'q:A/B.x';
      await states.apply(
        exchangeState(500, T0 + 27 * HOUR, [walletState(A, { positions: [positionState(odd, { liquidationPx: '50' })] })]),
      );
      const file = await download(`/api/external/positions/open/coin/${encodeURIComponent(odd)}`);
      expect(file.location).toContain('/open-positions/q%253AA%252FB%252Ex/500.csv?');
      expect(file.text.split('\n')[1]).toContain(',q:A/B.x,');
      const [, row] = parse(file.text) as string[][];
      expect(row!.slice(1, 4)).toEqual([A, odd, 'long']);
      expect(statSync(join(exportDir, 'open-positions', 'q%3AA%2FB%2Ex', '500.csv')).isFile()).toBe(true);
      const heatmap = JSON.parse((await download(`/api/external/exports/coins/${encodeURIComponent(odd)}/liquidation-heatmap`)).text);
      expect(heatmap.coin).toBe(odd);
    });
  });
});
