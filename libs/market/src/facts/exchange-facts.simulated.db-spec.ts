import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { simulate, type SimulatorSettings } from '#exchange';
import { dumpTables, FACT_TABLES, feedBlock, openFactsDatabase, parseLine, type TestPosition, useTestEnvironment } from '#testing';
import type { FeedBlock } from './exchange-facts.types.js';
import { ExchangeFactsWriter } from './exchange-facts.writer.js';

const config = useTestEnvironment();
// Six minutes across a funding hour (09:00 UTC), so every fact table gets rows.
const START = Date.UTC(2026, 5, 28, 8, 57);
const SETTINGS: SimulatorSettings = { seed: 11, startTimeMs: START, wallets: 100, markets: 6, eventsPerSecond: 3 };
const feed: FeedBlock<TestPosition>[] = [...simulate(SETTINGS, START + 6 * 60_000)].map((l, i) =>
  feedBlock(l.stream, parseLine(l.stream, l.line), i + 1),
);
const blocks = feed.map((f) => f.block);
const fills = blocks.flatMap((b) => (b.stream === 'node_fills_by_block' ? b.events : []));
const twapStatuses = blocks.flatMap((b) => (b.stream === 'node_twap_statuses_by_block' ? b.events : []));
const misc = blocks.flatMap((b) => (b.stream === 'misc_events_by_block' ? b.events : []));

const count = async (sql: string): Promise<number> => (await dataSource.query(sql))[0].n;
const chunks = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

let dataSource: DataSource;
let writer: ExchangeFactsWriter;

beforeAll(async () => {
  ({ dataSource, writer } = await openFactsDatabase(config.DATABASE_URL));
});

afterAll(async () => {
  await dataSource?.destroy();
});

describe('ExchangeFactsWriter on a simulated run', () => {
  it('stores exactly the facts the lines contain, every trade as a pair sharing its tid', async () => {
    for (const batch of chunks(feed, 100)) await writer.writeBlocks(batch, 'simulator');

    expect(fills.length).toBeGreaterThan(500);
    expect(await count(`SELECT count(*)::int AS n FROM fills`)).toBe(fills.length);
    expect(await count(`SELECT count(DISTINCT tid)::int AS n FROM fills`)).toBe(fills.length / 2);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM (SELECT tid FROM fills GROUP BY tid HAVING count(*) <> 2 OR count(DISTINCT address) <> 2 OR count(DISTINCT side) <> 2) t`,
      ),
    ).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM fills WHERE is_liquidated_side`)).toBe(
      fills.filter((f) => f.fill.liquidation?.liquidatedUser === f.address).length,
    );
    expect(await count(`SELECT count(*)::int AS n FROM twap_statuses`)).toBe(twapStatuses.length);
    const ledgerRows = misc.reduce((n, e) => n + (e.kind === 'ledgerUpdate' ? new Set(e.users).size : 0), 0);
    expect(ledgerRows).toBeGreaterThan(0);
    expect(await count(`SELECT count(*)::int AS n FROM ledger_updates`)).toBe(ledgerRows);
    expect(await count(`SELECT count(*)::int AS n FROM ledger_updates WHERE type IN ('deposit', 'withdraw')`)).toBe(
      misc.filter((e) => e.kind === 'ledgerUpdate' && (e.delta.type === 'deposit' || e.delta.type === 'withdraw')).length,
    );
    const funding = misc.reduce((n, e) => n + (e.kind === 'funding' ? e.deltas.length : 0), 0);
    expect(funding).toBeGreaterThan(0);
    expect(await count(`SELECT count(*)::int AS n FROM funding_payments`)).toBe(funding);

    // Sums in numeric equal the sums of the exact strings (no float on the way).
    const [{ fees }] = await dataSource.query(`SELECT sum(fee)::text AS fees FROM fills`);
    expect(fees).toBe(fills.reduce((s, f) => s.plus(f.fill.fee), new Big(0)).toFixed());

    const last = new Map(fills.map((f) => [f.fill.coin, f.fill.px]));
    const prices: Array<{ coin: string; px: string }> = await dataSource.query(`SELECT coin, px FROM market_prices ORDER BY coin`);
    expect(prices).toEqual([...last].sort(([a], [b]) => a.localeCompare(b)).map(([coin, px]) => ({ coin, px })));

    const checkpoints: Array<{ stream: string; position: TestPosition }> = await dataSource.query(
      `SELECT stream, position FROM feed_checkpoints WHERE source = 'simulator'`,
    );
    for (const { stream, position } of checkpoints) expect(position).toEqual(feed.filter((f) => f.stream === stream).at(-1)!.position);
  });

  it('gives the same tables when the whole run is read again in other batches', async () => {
    const before = await dumpTables(dataSource, FACT_TABLES);
    await dataSource.query(`DELETE FROM feed_checkpoints`);
    for (const batch of chunks(feed, 37)) await writer.writeBlocks(batch, 'simulator');
    expect(await dumpTables(dataSource, FACT_TABLES)).toEqual(before);
  });
});
