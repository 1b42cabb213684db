import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { parse } from 'csv-parse/sync';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { ExportRetention, ExportStore, MarketStateWriter } from '#market';
import { address, exchangeState, positionState, startedWriter, walletState } from '#testing';
import { ApiHarness } from '../support/api-harness.js';
import { advisoryLockWaiters, eventually, exportBuilds, holdExportBuildLocks } from '../support/export-locks.js';
import { S3TestServer } from '../support/s3-server.js';

const T0 = Date.UTC(2026, 10, 20);
const WALLETS = 2_500;

describe('Exports with EXPORT_STORE=s3', () => {
  let s3: S3TestServer;
  let api: ApiHarness;
  let token: string;
  let dataSource: DataSource;
  let states: MarketStateWriter;
  let client: S3Client;

  const keys = async () => ((await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).Contents ?? []).map((o) => o.Key).sort();
  const wallets = (height: number) =>
    Array.from({ length: WALLETS }, (_, i) =>
      walletState(address(i + 1), {
        perpEquity: String(1000 + i),
        positions: [
          positionState('BTC', {
            szi: i % 2 ? '-0.5' : '0.5',
            positionValue: '50000',
            entryPx: '100000',
            liquidationPx: String(60000 + i * 10 + height - 7),
          }),
        ],
      }),
    );

  beforeAll(async () => {
    s3 = await S3TestServer.start();
    api = await ApiHarness.start({ env: s3.env });
    ({ token } = await api.createConsumer({ name: 's3-exports-suite' }));
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
    client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    // A CSV of a few thousand rows (about 0.6 MB), streamed from Postgres into the store.
    states = await startedWriter(dataSource, MarketStateWriter);
    await states.apply(exchangeState(7, T0, wallets(7)));
  });
  afterAll(async () => {
    await dataSource.destroy();
    await api.close();
    await s3.close();
  });

  async function redirect(path: string): Promise<string> {
    const res = await api.get(path, token);
    expect(res.status).toBe(302);
    return res.headers.location as string;
  }

  it('redirects to a URL of the store pre-signed for 120 s, and the file is there', async () => {
    const location = await redirect('/api/external/exports/coins/btc/liquidation-heatmap');
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe(`${s3.endpoint}/${s3.bucket}/liquidation-heatmap/BTC/7.json`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('120');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const res = await fetch(location);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { coin: string; heatmap: Array<{ positionsCount: number; liquidationValue: number }> };
    expect(body.coin).toBe('BTC');
    // Every position has a liquidation price: all are in some bin, with their value.
    expect(body.heatmap.reduce((n, b) => n + b.positionsCount, 0)).toBe(WALLETS);
    expect(body.heatmap.reduce((v, b) => v + b.liquidationValue, 0)).toBe(WALLETS * 50000);
  });

  it("streams the open-positions CSV into the store, under the state update's key", async () => {
    const location = await redirect('/api/external/positions/open/coin/BTC');
    const text = await (await fetch(location)).text();
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(WALLETS);
    const stored: Array<{ address: string; liquidation_price: string }> = await dataSource.query(
      `SELECT address, liquidation_price::text AS liquidation_price FROM positions WHERE coin = 'BTC' AND close_time IS NULL ORDER BY id`,
    );
    expect(rows.map((r) => [r.address, r.liquidationPrice])).toEqual(stored.map((r) => [r.address, r.liquidation_price]));

    await redirect('/api/external/positions/open/coin/BTC');
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    expect(listed.Contents!.map((o) => o.Key).sort()).toEqual(['liquidation-heatmap/BTC/7.json', 'open-positions/BTC/7.csv']);
  });

  it('has the store refuse a link past its 120 s', async () => {
    const expired = await api.app.get(ExportStore).link('liquidation-heatmap/BTC/7.json', Date.now() - 121_000);
    const res = await fetch(expired.url);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<Message>Request has expired</Message>');
    const fresh = await api.app.get(ExportStore).link('liquidation-heatmap/BTC/7.json', Date.now() - 110_000);
    expect((await fetch(fresh.url)).status).toBe(200);
  });

  it('builds one object for twenty requests of the same export at once', async () => {
    const lock = await holdExportBuildLocks(dataSource, ['position-breakdown/BTC']);
    const answers = Promise.all(
      Array.from({ length: 20 }, () => api.get('/api/external/exports/coins/BTC/position-breakdown-by-size', token).then((r) => r)),
    );
    await eventually(async () => (await advisoryLockWaiters(dataSource)) >= 1);
    expect(await advisoryLockWaiters(dataSource)).toBe(1);
    const builtBefore = await exportBuilds(api);
    await lock.release();
    const responses = await answers;
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(302));
    expect(new Set(responses.map((r) => new URL(r.headers.location as string).pathname))).toEqual(
      new Set([`/${s3.bucket}/position-breakdown/BTC/7.json`]),
    );
    expect((await exportBuilds(api)) - builtBefore).toBe(1);
    expect(await keys()).toEqual(['liquidation-heatmap/BTC/7.json', 'open-positions/BTC/7.csv', 'position-breakdown/BTC/7.json']);
    const body = (await (await fetch(responses[19]!.headers.location as string)).json()) as {
      breakdownBySize: Array<{ positionCount: number }>;
    };
    expect(body.breakdownBySize.reduce((n, b) => n + b.positionCount, 0)).toBe(WALLETS);
  });

  it('deletes the objects a newer state update replaced once their links have lapsed, and keeps the current one', async () => {
    const before = Date.now();
    await states.apply(exchangeState(8, T0 + 3_600_000, wallets(8)));
    expect(new URL(await redirect('/api/external/exports/coins/BTC/liquidation-heatmap')).pathname).toBe(
      `/${s3.bucket}/liquidation-heatmap/BTC/8.json`,
    );
    const all = [
      'liquidation-heatmap/BTC/7.json',
      'liquidation-heatmap/BTC/8.json',
      'open-positions/BTC/7.csv',
      'position-breakdown/BTC/7.json',
    ];
    expect(await keys()).toEqual(all);
    const retention = api.app.get(ExportRetention);
    // Links given out a minute ago still work: nothing goes.
    expect(await retention.sweep(before + 60_000)).toBe(0);
    expect(await keys()).toEqual(all);
    // Past 120 s after the last link: update 7's objects go, update 8's stays.
    expect(await retention.sweep(Date.now() + 121_000)).toBe(3);
    expect(await keys()).toEqual(['liquidation-heatmap/BTC/8.json']);
    expect(await dataSource.query(`SELECT key FROM export_files`)).toEqual([{ key: 'liquidation-heatmap/BTC/8.json' }]);
  });

  it('serves no files itself', async () => {
    const res = await api.http.get('/exports/files/liquidation-heatmap/BTC/7.json?expires=1&signature=00');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'error', message: 'Export files are served by the export store, not by this api' });
  });

  it('keeps the rows of objects the store could not delete, for a later pass', async () => {
    await states.apply(exchangeState(9, T0 + 7_200_000, wallets(9)));
    await redirect('/api/external/exports/coins/BTC/liquidation-heatmap');
    expect(await keys()).toEqual(['liquidation-heatmap/BTC/8.json', 'liquidation-heatmap/BTC/9.json']);
    await s3.close();
    await expect(api.app.get(ExportRetention).sweep(Date.now() + 121_000)).rejects.toThrow();
    expect(await dataSource.query(`SELECT key FROM export_files ORDER BY key`)).toEqual([
      { key: 'liquidation-heatmap/BTC/8.json' },
      { key: 'liquidation-heatmap/BTC/9.json' },
    ]);
  });
});
