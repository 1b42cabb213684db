import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { ExchangeFactsWriter, FillProjector, MarketStateWriter } from '#market';
import { address, exchangeState, feed, fillsBlock, startedWriter, walletState, wireFill, type WireFill } from '#testing';
import { ApiHarness } from '../support/api-harness.js';

// The api keeps rendered answers keyed by the versions of the data each route reads, which every writer
// bumps in its transaction (docs/architecture.md, "The read cache"). These tests change the data behind
// the writers' back to see that an answer is reused, and through each writer to see that its commit ends
// the reuse of the routes that read its data, and only of those.

const FILLS = '/api/external/fills/liquidation';
const T = Date.UTC(2026, 6, 2, 9, 0);
const VICTIM = address(0x5001);
const LIQUIDATOR = address(0x5002);
const BUILDER = `0x${'c'.repeat(40)}`;

type LiquidationFill = WireFill & { liquidation: { liquidatedUser: string; markPx: string; method: string } };
const liquidationPair = (tid: number, time: number): Array<[string, WireFill]> => {
  const liquidation = { liquidatedUser: VICTIM, markPx: '100', method: 'market' };
  const hash = `0x${tid.toString(16).padStart(64, '0')}`;
  return [
    [
      VICTIM,
      wireFill({
        coin: 'SOL',
        px: '100',
        sz: '1',
        side: 'A',
        time,
        tid,
        startPosition: '1',
        dir: 'Close Long',
        closedPnl: '-5',
        hash,
        builder: BUILDER,
        builderFee: '0.01',
        liquidation,
      } as LiquidationFill),
    ],
    [
      LIQUIDATOR,
      wireFill({
        coin: 'SOL',
        px: '100',
        sz: '1',
        side: 'B',
        time,
        tid,
        startPosition: '0',
        dir: 'Open Long',
        closedPnl: '0',
        hash,
        crossed: false,
        liquidation,
      } as LiquidationFill),
    ],
  ];
};
const tids = (body: { fills: Array<{ tid: number; address: string }> }) => body.fills.map((f) => `${f.tid}:${f.address}`);

describe('the read cache', () => {
  let api: ApiHarness;
  let cold: ApiHarness;
  let token: string;
  let dataSource: DataSource;
  let facts: ExchangeFactsWriter;

  beforeAll(async () => {
    api = await ApiHarness.start();
    // A second api on the same database with the cache off: what every answer must equal.
    cold = await ApiHarness.start({ reset: false, env: { READ_CACHE_MB: '0' } });
    ({ token } = await api.createConsumer({ name: 'read-cache-suite' }));
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
    facts = await startedWriter(dataSource, ExchangeFactsWriter);
    await facts.writeBlocks(feed([fillsBlock(7_000_001, T, liquidationPair(501, T))]), 'node');
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await cold?.close();
    await api?.close();
  });

  it('reuses an answer until a facts batch commits, then answers from the stored rows again', async () => {
    const first = await api.get(FILLS, token);
    expect(first.status).toBe(200);
    // Newest first, ties by tid, then address descending.
    expect(tids(first.body)).toEqual([`501:${LIQUIDATOR}`, `501:${VICTIM}`]);

    // Behind the writers' back: no version moves, so the kept answer is served; the cache-less api sees the change.
    await dataSource.query(`DELETE FROM fills WHERE tid = 501 AND address = $1`, [LIQUIDATOR]);
    expect((await api.get(FILLS, token)).text).toBe(first.text);
    expect(tids((await cold.get(FILLS, token)).body)).toEqual([`501:${VICTIM}`]);

    // A batch through the facts writer bumps the facts version: the next answer is read again, the deletion included.
    await facts.writeBlocks(feed([fillsBlock(7_000_002, T + 60_000, liquidationPair(502, T + 60_000))]), 'node');
    const after = await api.get(FILLS, token);
    expect(tids(after.body)).toEqual([`502:${LIQUIDATOR}`, `502:${VICTIM}`, `501:${VICTIM}`]);
    expect(after.text).toBe((await cold.get(FILLS, token)).text);
  });

  it('keeps answers per path and query: another filter is read on its own', async () => {
    const victim = await api.get(`${FILLS}?address=${VICTIM}`, token);
    expect(tids(victim.body)).toEqual([`502:${VICTIM}`, `501:${VICTIM}`]);
    const liquidator = await api.get(`${FILLS}?address=${LIQUIDATOR}`, token);
    expect(tids(liquidator.body)).toEqual([`502:${LIQUIDATOR}`]);
  });

  it('reads again after a state update commits', async () => {
    const states = await startedWriter(dataSource, MarketStateWriter);
    const wallets = `/api/external/wallets?address=${VICTIM}`;
    await states.apply(exchangeState(1, T + 15 * 60_000, [walletState(VICTIM, { perpEquity: '1000', allTimePnl: '10' })]));
    expect((await api.get(wallets, token)).body.items.map((w: { totalEquity: number }) => w.totalEquity)).toEqual([1000]);

    await dataSource.query(`UPDATE wallets SET total_equity = 1 WHERE address = $1`, [VICTIM]);
    expect((await api.get(wallets, token)).body.items.map((w: { totalEquity: number }) => w.totalEquity)).toEqual([1000]);

    await states.apply(exchangeState(2, T + 30 * 60_000, [walletState(VICTIM, { perpEquity: '2500', allTimePnl: '10' })]));
    const after = await api.get(wallets, token);
    expect(after.body.items.map((w: { totalEquity: number }) => w.totalEquity)).toEqual([2500]);
    expect(after.text).toBe((await cold.get(wallets, token)).text);
  });

  it('reads again after a favourite is added or removed, and not after a request that changed nothing', async () => {
    const wallets = `/api/external/wallets?address=${VICTIM}`;
    const count = async () => (await api.get(wallets, token)).body.items[0].favoriteCount;
    const put = () => api.http.put(`/api/favorites/accounts/${VICTIM}`).set('Authorization', `Bearer ${token}`);
    const del = () => api.http.delete(`/api/favorites/accounts/${VICTIM}`).set('Authorization', `Bearer ${token}`);
    expect(await count()).toBe(0);
    expect((await put()).status).toBe(200);
    expect(await count()).toBe(1);
    const versions = await dataSource.query(`SELECT domain, version::text FROM read_versions ORDER BY domain`);
    expect((await put()).status).toBe(200);
    expect(await dataSource.query(`SELECT domain, version::text FROM read_versions ORDER BY domain`)).toEqual(versions);
    expect((await del()).status).toBe(204);
    expect(await count()).toBe(0);
  });

  it('keys a route by the kinds of data it reads: a facts batch leaves the wallets list kept, a state update ends it', async () => {
    const wallets = `/api/external/wallets?address=${VICTIM}`;
    const equity = async (harness: ApiHarness) =>
      (await harness.get(wallets, token)).body.items.map((w: { totalEquity: number }) => w.totalEquity);
    expect(await equity(api)).toEqual([2500]);
    await dataSource.query(`UPDATE wallets SET total_equity = 1 WHERE address = $1`, [VICTIM]);
    await facts.writeBlocks(feed([fillsBlock(7_000_003, T + 120_000, liquidationPair(503, T + 120_000))]), 'node');
    expect(await equity(api)).toEqual([2500]);
    expect(await equity(cold)).toEqual([1]);

    const states = await startedWriter(dataSource, MarketStateWriter);
    await states.apply(exchangeState(3, T + 45 * 60_000, [walletState(VICTIM, { perpEquity: '3000', allTimePnl: '10' })]));
    expect(await equity(api)).toEqual([3000]);
  });

  it('reads again after the fill projector commits, and not after a run with nothing to project', async () => {
    const list = '/api/external/builders/list/timeframe/all';
    const projector = await startedWriter(dataSource, FillProjector);
    const before = await api.get(list, token);
    expect(before.status).toBe(200);
    await projector.project('node');
    const versions = await dataSource.query(`SELECT domain, version::text FROM read_versions ORDER BY domain`);
    await projector.project('node');
    expect(await dataSource.query(`SELECT domain, version::text FROM read_versions ORDER BY domain`)).toEqual(versions);
    const after = await api.get(list, token);
    expect(after.text).toBe((await cold.get(list, token)).text);
    expect(after.text).not.toBe(before.text);
  });

  it('sends a kept answer with the entity tag express gives the same body, and answers a matching If-None-Match with a 304', async () => {
    const path = `${FILLS}?address=${VICTIM}`;
    await api.get(path, token);
    const kept = await api.get(path, token);
    const rendered = await cold.get(path, token);
    expect(kept.text).toBe(rendered.text);
    expect(kept.headers['etag']).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
    expect(kept.headers['etag']).toBe(rendered.headers['etag']);
    expect(kept.headers['content-type']).toBe('application/json; charset=utf-8');
    const again = await api.get(path, token).set('If-None-Match', kept.headers['etag']!);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('counts hits, shared renderings and renderings on /metrics', async () => {
    const count = async (result: string) => {
      const text = (await api.get('/metrics')).text;
      const line = text.split('\n').find((l) => l.startsWith(`tidewatch_read_cache_requests_total{result="${result}"`));
      return Number(line?.split(' ').pop());
    };
    const path = `${FILLS}?side=A`;
    const [hits, renders] = [await count('hit'), await count('rendered')];
    await api.get(path, token);
    await api.get(path, token);
    await api.get(path, token);
    expect([(await count('hit')) - hits, (await count('rendered')) - renders]).toEqual([2, 1]);
  });

  it('never keeps a refusal: a bad query is a 400 each time', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await api.get(`${FILLS}?limit=0`, token);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['limit']);
    }
  });
});
