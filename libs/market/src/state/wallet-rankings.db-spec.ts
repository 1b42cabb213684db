import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { exchangeState, openFactsDatabase, positionState, startedWriter, useTestEnvironment, walletState } from '#testing';
import type { WalletStateRecord } from '#exchange';
import { WalletsQueries } from '../read/wallets/wallets.queries.js';
import { WALLET_ORDER_FIELDS, type WalletOrderField } from '../read/wallets/wallets.types.js';
import { MarketStateWriter } from './market-state.writer.js';
import { WALLET_RANKING_CHUNK } from './wallet-rankings.js';

// The wallets list's rankings, written by the state writer at each update: every unfiltered page, in
// both directions and across chunk boundaries, against the same page sorted here by the list's rule
// (the field, then the address in the same direction, nulls last) from the wallets table itself.

const config = useTestEnvironment();
let dataSource: DataSource;
const queries = new WalletsQueries();

const T = Date.UTC(2026, 10, 20, 12, 0, 0);
const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
/** More wallets than two chunks, so pages straddle chunk boundaries. */
const WALLETS = 2 * WALLET_RANKING_CHUNK + 137;
// Few distinct values, so every field has ties; 0 and negative equity leave the ratios null.
const EQUITY = ['1000', '250', '0', '-50', '20000.5', '1000.000', '7'];
const PNL = ['0', '-500', '150000', '12.25', '-2000000'];

/** Wallet i at update k: some fields move between updates, so the second update re-ranks. */
function walletAt(i: number, k: number): WalletStateRecord {
  const positions =
    i % 3 === 0
      ? []
      : [
          positionState('BTC', {
            szi: i % 2 ? '2' : '-2',
            entryPx: '100',
            positionValue: String(180 + ((i + k) % 4) * 10),
            unrealizedPnl: String(((i * 7 + k) % 9) - 4),
            liquidationPx: i % 5 === 0 ? null : i % 2 ? '50' : '150',
          }),
        ];
  return walletState(address(0x1000 + ((i * 7919) % 100_003)), {
    perpEquity: EQUITY[(i + k) % EQUITY.length]!,
    allTimePnl: PNL[(i * 3 + k) % PNL.length],
    spotHype: i % 4 === 0 ? '10' : '0',
    positions,
  });
}

const COLUMN: Record<WalletOrderField, { column: string; nullable: boolean }> = {
  address: { column: 'address', nullable: false },
  totalEquity: { column: 'total_equity', nullable: false },
  earliestActivityAt: { column: 'earliest_activity_at', nullable: false },
  perpPnl: { column: 'perp_pnl', nullable: false },
  perpEquity: { column: 'perp_equity', nullable: false },
  perpBias: { column: 'perp_bias', nullable: true },
  openValue: { column: 'open_value', nullable: false },
  sumUpnl: { column: 'sum_upnl', nullable: false },
  closestLiqProgress: { column: 'closest_liq_progress', nullable: true },
  countOpenPositions: { column: 'count_open_positions', nullable: false },
  exposureRatio: { column: 'exposure_ratio', nullable: true },
};

/** The list's rule, written out: the page's addresses sorted from the wallets table. */
async function expected(field: WalletOrderField, descending: boolean, offset: number, limit: number): Promise<string[]> {
  const { column, nullable } = COLUMN[field];
  const d = descending ? 'DESC' : 'ASC';
  const rows: Array<{ address: string }> = await dataSource.query(
    `SELECT address FROM wallets ORDER BY ${column} ${d}${nullable ? ' NULLS LAST' : ''}, address ${d} OFFSET $1 LIMIT $2`,
    [offset, limit],
  );
  return rows.map((r) => r.address);
}

async function page(field: WalletOrderField, descending: boolean, offset: number, limit: number) {
  return dataSource.transaction('REPEATABLE READ', (q) => queries.page(q, { orderBy: field, descending, offset, limit }));
}

const PAGES: Array<[offset: number, limit: number]> = [
  [0, 500],
  [0, 1],
  [450, 100],
  [499, 2],
  [WALLET_RANKING_CHUNK, 500],
  [WALLETS - 3, 500],
  [WALLETS, 10],
  [3, 1],
];

beforeAll(async () => {
  ({ dataSource } = await openFactsDatabase(config.DATABASE_URL));
  const writer = await startedWriter(dataSource, MarketStateWriter);
  await writer.apply(
    exchangeState(
      1,
      T - 15 * 60_000,
      Array.from({ length: WALLETS - 100 }, (_, i) => walletAt(i, 0)),
    ),
  );
  await writer.apply(
    exchangeState(
      2,
      T,
      Array.from({ length: WALLETS }, (_, i) => walletAt(i, 1)),
    ),
  );
}, 120_000);

afterAll(async () => {
  await dataSource?.destroy();
});

describe('the wallets list rankings the state writer keeps', () => {
  it('count every wallet of the latest update, in one row per chunk of each ranking', async () => {
    const [status]: Array<{ wallets: number; state_time: Date }> = await dataSource.query(
      `SELECT wallets, state_time FROM wallet_rankings_status`,
    );
    expect(status).toEqual({ wallets: WALLETS, state_time: new Date(T) });
    const chunks: Array<{ ranking: string; chunks: number; addresses: number }> = await dataSource.query(
      `SELECT ranking, count(*)::int AS chunks, sum(cardinality(addresses))::int AS addresses FROM wallet_rankings GROUP BY ranking ORDER BY ranking`,
    );
    expect(chunks.map((c) => c.ranking)).toEqual([
      'closest_liq_progress asc',
      'closest_liq_progress desc',
      'exposure_ratio asc',
      'exposure_ratio desc',
      'open_value desc',
      'perp_bias asc',
      'perp_bias desc',
      'perp_equity desc',
      'perp_pnl desc',
      'sum_upnl desc',
      'total_equity desc',
    ]);
    for (const c of chunks) expect([c.chunks, c.addresses]).toEqual([3, WALLETS]);
  });

  for (const field of WALLET_ORDER_FIELDS) {
    for (const descending of [true, false]) {
      it(`give the pages of the list sorted by ${field} ${descending ? 'desc' : 'asc'} as the list's rule sorts them`, async () => {
        for (const [offset, limit] of PAGES) {
          const { totalCount, records } = await page(field, descending, offset, limit);
          expect(totalCount).toBe(WALLETS);
          expect(records.map((r) => r.address)).toEqual(await expected(field, descending, offset, limit));
        }
      });
    }
  }

  it('leave the filtered lists to a sort of the matching wallets, counted', async () => {
    const { totalCount, records } = await dataSource.transaction('REPEATABLE READ', (q) =>
      queries.page(q, { orderBy: 'totalEquity', descending: true, offset: 0, limit: 5, hasOpenPositions: false }),
    );
    const [{ n }]: Array<{ n: number }> = await dataSource.query(`SELECT count(*)::int AS n FROM wallets WHERE count_open_positions = 0`);
    expect(totalCount).toBe(n);
    const rows: Array<{ address: string }> = await dataSource.query(
      `SELECT address FROM wallets WHERE count_open_positions = 0 ORDER BY total_equity DESC, address DESC LIMIT 5`,
    );
    expect(records.map((r) => r.address)).toEqual(rows.map((r) => r.address));
  });
});
