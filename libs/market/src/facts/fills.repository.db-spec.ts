import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { openFactsDatabase, useTestEnvironment } from '#testing';
import type { FillRow } from './fact-rows.js';
import { FillsRepository } from './fills.repository.js';

const config = useTestEnvironment();
const repository = new FillsRepository();
let dataSource: DataSource;

const ALICE = '0xa775d1bd91ee2cc4cae6113e5fd9c0c17b355277';
const BOB = '0x5ef843ccf26810073ee689a954f6d05f5b48fccb';
const TIME = '2026-06-28T08:43:53.257Z';

function fill(tid: number, address: string, changes: Partial<FillRow> = {}): FillRow {
  return {
    address,
    coin: 'SOL',
    px: '72.153',
    sz: '0.58',
    side: 'A',
    time: TIME,
    startPosition: '-162.6',
    dir: 'Open Short',
    closedPnl: '0.0',
    hash: `0x${'dc25'.repeat(16)}`,
    oid: 481702553903,
    crossed: false,
    fee: '-0.001255',
    feeToken: 'USDC',
    tid,
    cloid: null,
    twapId: null,
    builder: null,
    builderFee: null,
    liquidatedUser: null,
    liquidationMarkPx: null,
    liquidationMethod: null,
    isLiquidatedSide: false,
    blockNumber: 1052527672,
    blockTime: TIME,
    ...changes,
  };
}

/** Writes the rows in one transaction, as the facts writer does. */
const write = (rows: FillRow[]): Promise<number> =>
  dataSource.transaction(async (q) => {
    await repository.ensurePartitions(q, rows);
    return repository.insert(q, rows);
  });

const stored = async (): Promise<Array<Record<string, unknown>>> =>
  dataSource.query(
    `SELECT tid, address, coin, px, sz, side, to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS time, start_position, dir,
            closed_pnl, hash, oid, crossed, fee, fee_token, cloid, twap_id, builder, builder_fee, liquidated_user, liquidation_mark_px,
            liquidation_method, is_liquidated_side, block_number
     FROM fills ORDER BY tid, address`,
  );

beforeAll(async () => {
  ({ dataSource } = await openFactsDatabase(config.DATABASE_URL));
});
beforeEach(async () => {
  await dataSource.query('TRUNCATE fills');
});
afterAll(async () => {
  await dataSource?.destroy();
});

describe('FillsRepository.insert', () => {
  it('stores new fills with every field as given, text with tabs, newlines and backslashes included', async () => {
    const odd = fill(7, BOB, {
      coin: 'xyz:TAB\tCOIN',
      dir: 'Long > Short\nnext',
      cloid: 'back\\slash\rreturn',
      feeToken: 'USDC 🐋',
      px: '0.000100',
      side: 'B',
      crossed: true,
      twapId: 1305284,
      builder: ALICE,
      builderFee: '0.002',
      liquidatedUser: BOB,
      liquidationMarkPx: '72.149',
      liquidationMethod: 'backstop',
      isLiquidatedSide: true,
      fee: '0.040673',
    });
    expect(await write([fill(5, ALICE), odd])).toBe(2);
    expect(await stored()).toEqual([
      {
        tid: '5',
        address: ALICE,
        coin: 'SOL',
        px: '72.153',
        sz: '0.58',
        side: 'A',
        time: '2026-06-28T08:43:53.257',
        start_position: '-162.6',
        dir: 'Open Short',
        closed_pnl: '0.0',
        hash: `0x${'dc25'.repeat(16)}`,
        oid: '481702553903',
        crossed: false,
        fee: '-0.001255',
        fee_token: 'USDC',
        cloid: null,
        twap_id: null,
        builder: null,
        builder_fee: null,
        liquidated_user: null,
        liquidation_mark_px: null,
        liquidation_method: null,
        is_liquidated_side: false,
        block_number: '1052527672',
      },
      {
        tid: '7',
        address: BOB,
        coin: 'xyz:TAB\tCOIN',
        px: '0.000100',
        sz: '0.58',
        side: 'B',
        time: '2026-06-28T08:43:53.257',
        start_position: '-162.6',
        dir: 'Long > Short\nnext',
        closed_pnl: '0.0',
        hash: `0x${'dc25'.repeat(16)}`,
        oid: '481702553903',
        crossed: true,
        fee: '0.040673',
        fee_token: 'USDC 🐋',
        cloid: 'back\\slash\rreturn',
        twap_id: '1305284',
        builder: ALICE,
        builder_fee: '0.002',
        liquidated_user: BOB,
        liquidation_mark_px: '72.149',
        liquidation_method: 'backstop',
        is_liquidated_side: true,
        block_number: '1052527672',
      },
    ]);
  });

  it('adds only the fills not stored yet and leaves the stored ones as they were', async () => {
    expect(await write([fill(5, ALICE), fill(5, BOB)])).toBe(2);
    const replay = [fill(5, ALICE, { px: '99.0' }), fill(6, ALICE), fill(5, BOB, { fee: '1.0' })];
    expect(await write(replay)).toBe(1);
    const rows = await stored();
    expect(rows.map((r) => [r.tid, r.address, r.px, r.fee])).toEqual([
      ['5', BOB, '72.153', '-0.001255'],
      ['5', ALICE, '72.153', '-0.001255'],
      ['6', ALICE, '72.153', '-0.001255'],
    ]);
  });

  it('stores a fill that is twice in one batch once', async () => {
    expect(await write([fill(8, ALICE), fill(9, ALICE), fill(8, ALICE)])).toBe(2);
    expect((await stored()).map((r) => r.tid)).toEqual(['8', '9']);
  });

  it('fails on a row Postgres refuses, rather than skipping it', async () => {
    await expect(write([fill(10, ALICE), fill(11, ALICE, { px: 'not a price' })])).rejects.toThrow(/invalid input syntax for type numeric/);
    expect(await stored()).toEqual([]);
  });

  it('lets a writer that waited on another one storing the same fill add the rest', async () => {
    await write([fill(1, BOB)]); // the month's partition exists before either transaction starts
    const first = dataSource.createQueryRunner();
    await first.connect();
    await first.startTransaction();
    expect(await repository.insert(first.manager, [fill(20, ALICE)])).toBe(1);

    // The second writer blocks on the first one's uncommitted row until it commits.
    const second = write([fill(20, ALICE), fill(21, ALICE)]);
    for (let tries = 0; ; tries++) {
      const [{ n }] = await dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (n > 0) break;
      if (tries > 500) throw new Error('the second writer never waited for the first');
      await sleep(10);
    }
    await first.commitTransaction();
    await first.release();

    expect(await second).toBe(1);
    expect((await stored()).map((r) => [r.tid, r.address])).toEqual([
      ['1', BOB],
      ['20', ALICE],
      ['21', ALICE],
    ]);
  });
});
