import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { ExportRetention, MarketStateWriter } from '#market';
import { exchangeState, startedWriter } from '#testing';
import { ApiHarness } from '../support/api-harness.js';
import { advisoryLockWaiters, eventually, exportBuilds, holdExportBuildLocks, within } from '../support/export-locks.js';
import { COINS, HOSTILE_COIN, HOUR, manyWallets, T0 } from '../support/exports.fixture.js';

const WALLETS = 1_000;
const CSV = '/api/external/positions/open/coin/BTC';
const EXPORT_POOL_SIZE = 2;

const pathOf = (location: string) => new URL(location, 'http://x').pathname;

describe('Export builds: one per key, on their own pool, deleted once replaced and lapsed', () => {
  let exportDir: string;
  let api: ApiHarness;
  let other: ApiHarness;
  let token: string;
  let dataSource: DataSource;
  let states: MarketStateWriter;

  beforeAll(async () => {
    exportDir = mkdtempSync(join(tmpdir(), 'tidewatch-export-builds-'));
    const env = { EXPORT_DIR: exportDir, EXPORT_POOL_SIZE: String(EXPORT_POOL_SIZE) };
    api = await ApiHarness.start({ env });
    // A second api process of the same deployment: same database, same folder.
    other = await ApiHarness.start({ env, reset: false });
    ({ token } = await api.createConsumer({ name: 'export-builds-suite' }));
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
    states = await startedWriter(dataSource, MarketStateWriter);
    await states.apply(exchangeState(100, T0, manyWallets(WALLETS)));
  });
  afterAll(async () => {
    await dataSource.destroy();
    await other.close();
    await api.close();
    rmSync(exportDir, { recursive: true, force: true });
  });

  it('builds one file for twenty requests of the same export at once, across two api processes, and gives all the same file', async () => {
    // Held as a third process building it would: both apis' builds queue on it, then find its file.
    const lock = await holdExportBuildLocks(dataSource, ['open-positions/BTC']);
    const answers = Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? other : api).get(CSV, token).then((r) => r)));
    // Each process sends one build for its ten requests.
    await eventually(async () => (await advisoryLockWaiters(dataSource)) >= 2);
    expect(await advisoryLockWaiters(dataSource)).toBe(2);
    await lock.release();
    const responses = await answers;
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(302));
    expect(new Set(responses.map((r) => pathOf(r.headers.location as string)))).toEqual(
      new Set(['/exports/files/open-positions/BTC/100.csv']),
    );
    expect((await exportBuilds(api)) + (await exportBuilds(other))).toBe(1);
    expect(readdirSync(join(exportDir, 'open-positions', 'BTC'))).toEqual(['100.csv']);
    expect(await dataSource.query(`SELECT key, state_height::int AS height FROM export_files`)).toEqual([
      { key: 'open-positions/BTC/100.csv', height: 100 },
    ]);
    const rows = parse(readFileSync(join(exportDir, 'open-positions', 'BTC', '100.csv'), 'utf8'), { columns: true });
    expect(rows).toHaveLength(WALLETS);
  });

  it('answers other routes while twenty different exports wait for the export pool', async () => {
    const lock = await holdExportBuildLocks(
      dataSource,
      COINS.map((c) => `open-positions/${c}`),
    );
    let settled = 0;
    const exports = Promise.all(
      COINS.map((coin) => api.get(`/api/external/positions/open/coin/${coin}`, token).then((r) => (settled++, r))),
    );
    try {
      // The pool's connections are all taken by builds waiting on Postgres; the other builds wait for one in the api.
      await eventually(async () => (await advisoryLockWaiters(dataSource)) >= EXPORT_POOL_SIZE);
      const status = await within(
        api.get('/api/external/tidewatch/state/status', token).then((r) => r),
        'the state status route',
      );
      expect(status.status).toBe(200);
      expect(status.body.data).toEqual({
        height: 100,
        stateTime: new Date(T0).toISOString(),
        processedAt: expect.any(String),
        isLatestProcessed: true,
        lagSeconds: expect.any(Number),
      });
      expect(settled).toBe(0);
      expect(await advisoryLockWaiters(dataSource)).toBe(EXPORT_POOL_SIZE);
    } finally {
      await lock.release();
    }
    const responses = await exports;
    expect(responses.map((r) => [r.status, pathOf(r.headers.location as string)])).toEqual(
      COINS.map((coin) => [302, `/exports/files/open-positions/${coin}/100.csv`]),
    );
  });

  it('neutralises text cells that start like a formula, and leaves negative numbers as they are', async () => {
    const res = await api.get(`/api/external/positions/open/coin/${encodeURIComponent(HOSTILE_COIN)}`, token);
    expect(res.status).toBe(302);
    const text = readFileSync(join(exportDir, 'open-positions', '%40evil%3A-1', '100.csv'), 'utf8');
    const [header, row] = parse(text) as string[][];
    const cell = (name: string) => row![header!.indexOf(name)];
    expect([cell('coin'), cell('dex'), cell('side')]).toEqual(["'@evil:-1", "'@evil", 'short']);
    expect([cell('size'), cell('value'), cell('unrealizedPnl'), cell('profile_pnl')]).toEqual(['3', '42.5', '-12.5', '-500']);
  });

  it('deletes the files a newer state update replaced once their links have lapsed, and keeps the current one', async () => {
    const heatmap = await api.get('/api/external/exports/coins/BTC/liquidation-heatmap', token);
    expect(pathOf(heatmap.headers.location as string)).toBe('/exports/files/liquidation-heatmap/BTC/100.json');
    const before = Date.now();
    await states.apply(exchangeState(200, T0 + HOUR, manyWallets(WALLETS)));
    expect(pathOf((await api.get(CSV, token)).headers.location as string)).toBe('/exports/files/open-positions/BTC/200.csv');
    const files = () =>
      readdirSync(exportDir, { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.(csv|json)$/.test(f))
        .sort();
    const built = files();
    expect(built).toHaveLength(1 + COINS.length + 1 + 1 + 1);

    const retention = api.app.get(ExportRetention);
    // A minute on, every link given out for update 100's files still works: nothing goes.
    expect(await retention.sweep(before + 60_000)).toBe(0);
    expect(files()).toEqual(built);
    // Past the 120 s of the last link: all of update 100's files go; update 200's file stays though its link lapsed too.
    expect(await retention.sweep(Date.now() + 121_000)).toBe(built.length - 1);
    expect(files()).toEqual([join('open-positions', 'BTC', '200.csv')]);
    expect(await dataSource.query(`SELECT key FROM export_files`)).toEqual([{ key: 'open-positions/BTC/200.csv' }]);
    expect(await retention.sweep(Date.now() + 3_600_000)).toBe(0);
    expect(files()).toEqual([join('open-positions', 'BTC', '200.csv')]);
  });
});
