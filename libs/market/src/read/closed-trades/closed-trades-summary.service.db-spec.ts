import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { parseUserFills } from '#exchange';
import { fixtureJson, resetDatabase, useTestEnvironment } from '#testing';
import { buildClosedTrades } from '../../closed-trades/closed-trade.builder.js';
import type { ClosedTrade } from '../../closed-trades/closed-trade.types.js';
import { ClosedTradesRepository } from '../../closed-trades/closed-trades.repository.js';
import { summarizeClosedTrades, type ClosedTradesSummaryRecord } from '../../closed-trades/closed-trades.summary.js';
import { ClosedTradesSummaryQueries } from './closed-trades-summary.queries.js';
import { summaryRecordJson } from './closed-trades-summary.record.js';
import { ClosedTradesSummaryService, type ClosedTradesSummaryInterval } from './closed-trades-summary.service.js';

// The route's summary is computed in SQL; summarizeClosedTrades is the reference it must equal, over the
// trades of info_userFills.json and over a copy of them spread over the last year and more (for the date intervals).
const config = useTestEnvironment();
const DAY = 24 * 3_600_000;
const OLD = '0x00000000000000000000000000000000000000a1';
const RECENT = '0x00000000000000000000000000000000000000a2';
let dataSource: DataSource;
let oldTrades: ClosedTrade[];
let recentTrades: ClosedTrade[];
const now = Date.now();

const newestFirst = (a: ClosedTrade, b: ClosedTrade): number =>
  b.closeTime - a.closeTime || (a.hash < b.hash ? 1 : a.hash > b.hash ? -1 : 0);

/** summarizeClosedTrades' answer in the route's shape: without netPnlUsd, decimals as JSON numbers. */
function reference(address: string, interval: ClosedTradesSummaryInterval, trades: ClosedTrade[]) {
  const json = ({ netPnlUsd: _net, ...record }: ClosedTradesSummaryRecord) => summaryRecordJson(record);
  const { summary, byCoin } = summarizeClosedTrades(trades);
  return { address, interval, summary: json(summary), byCoin: byCoin.map(({ coin, ...record }) => ({ coin, ...json({ ...record }) })) };
}

const service = () => new ClosedTradesSummaryService(dataSource, new ClosedTradesSummaryQueries());

beforeAll(async () => {
  await resetDatabase(config.DATABASE_URL);
  dataSource = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
  const parsed = parseUserFills(fixtureJson('info_userFills.json'), { file: 'info_userFills.json' });
  if (!parsed.ok) throw new Error(parsed.error.message);
  const built = buildClosedTrades(
    OLD,
    [...parsed.value].sort((a, b) => a.time - b.time),
  );
  // Three copies a day apart, so the 50 latest are some of them.
  oldTrades = [0, 1, 2]
    .flatMap((k) => built.map((t) => ({ ...t, hash: `${k}${t.hash}`, openTime: t.openTime - k * DAY, closeTime: t.closeTime - k * DAY })))
    .sort(newestFirst);
  // The i-th newest closes 1 + 10 i days ago: spread over a year and past it.
  recentTrades = oldTrades.map((t, i) => {
    const shift = now - (1 + 10 * i) * DAY - t.closeTime;
    return { ...t, address: RECENT, hash: `r${t.hash}`, openTime: t.openTime + shift, closeTime: t.closeTime + shift };
  });
  await new ClosedTradesRepository().insert(dataSource, [...oldTrades, ...recentTrades]);
});

afterAll(async () => {
  await dataSource?.destroy();
});

describe('ClosedTradesSummaryService.summary', () => {
  it('equals summarizeClosedTrades over all of a wallet’s trades, overall and per coin', async () => {
    expect(oldTrades.length).toBeGreaterThan(100);
    const answer = await service().summary(OLD.toUpperCase().replace('0X', '0x'));
    expect(answer).toEqual(reference(OLD, 'all', oldTrades));
    expect(answer.byCoin.length).toBeGreaterThan(1);
  });

  it('equals it over the 50 latest trades for last50', async () => {
    expect(await service().summary(OLD, 'last50')).toEqual(reference(OLD, 'last50', oldTrades.slice(0, 50)));
  });

  it.each([
    ['30d', 30],
    ['90d', 90],
    ['180d', 180],
    ['365d', 365],
  ] as const)('equals it over the trades closed in the last %s', async (interval, days) => {
    const since = Date.now() - days * DAY;
    const answer = await service().summary(RECENT, interval);
    const inside = recentTrades.filter((t) => t.closeTime >= since);
    expect(inside.length).toBeGreaterThan(0);
    expect(inside.length).toBeLessThan(recentTrades.length);
    expect(answer).toEqual(reference(RECENT, interval, inside));
    expect((await service().summary(OLD, interval)).summary.tradeCount).toBe(oldTrades.filter((t) => t.closeTime >= since).length);
  });

  it('gives zeros and nulls for a wallet without trades', async () => {
    expect(await service().summary(`0x${'9'.repeat(40)}`, '30d')).toEqual(reference(`0x${'9'.repeat(40)}`, '30d', []));
  });
});
