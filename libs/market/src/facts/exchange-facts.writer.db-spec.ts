import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import {
  dumpTables,
  FACT_TABLES,
  feedBlock,
  fixtureBlocks,
  fixtureJson,
  openFactsDatabase,
  parseLine,
  startedWriter,
  type TestPosition,
  useTestEnvironment,
} from '#testing';
import { type NodeBlock, nodeTime } from '#exchange';
import type { FeedBlock } from './exchange-facts.types.js';
import { ExchangeFactsWriter } from './exchange-facts.writer.js';

const config = useTestEnvironment();
let dataSource: DataSource;
let writer: ExchangeFactsWriter;

const LIQUIDATION = fixtureBlocks('node_fills_by_block_liquidation.json', 'node_fills_by_block')[0]!;
const TWAP_FILLS = fixtureBlocks('node_fills_by_block_twap.json', 'node_fills_by_block')[0]!;
const TWAP_STATUS = fixtureBlocks('node_twap_statuses_by_block.json', 'node_twap_statuses_by_block')[0]!;
// The recorded misc sample is not in block order; a feed delivers blocks in order.
const MISC = fixtureBlocks('node_misc_events_by_block.json', 'misc_events_by_block').sort((a, b) => a.blockNumber - b.blockNumber);

const fixtureBatch = (): FeedBlock<TestPosition>[] => [
  feedBlock('node_fills_by_block', TWAP_FILLS, 1),
  feedBlock('node_fills_by_block', LIQUIDATION, 2),
  feedBlock('node_twap_statuses_by_block', TWAP_STATUS, 1),
  ...MISC.map((b, i) => feedBlock('misc_events_by_block', b, i + 1)),
];

/** The liquidation fixture's fill moved to another trade, time and block (same coin). */
function movedFill(opts: { tid: number; timeMs: number; blockNumber: number; px?: string }): NodeBlock {
  const wire = fixtureJson('node_fills_by_block_liquidation.json') as {
    block_number: number;
    block_time: string;
    local_time: string;
    events: [string, Record<string, unknown>][];
  };
  const time = nodeTime(opts.timeMs, 0);
  Object.assign(wire, { block_number: opts.blockNumber, block_time: time, local_time: time });
  Object.assign(wire.events[0]![1], { tid: opts.tid, time: opts.timeMs, px: opts.px ?? '72.153' });
  return parseLine('node_fills_by_block', JSON.stringify(wire));
}

beforeAll(async () => {
  ({ dataSource, writer } = await openFactsDatabase(config.DATABASE_URL));
});

afterAll(async () => {
  await dataSource?.destroy();
});

describe('ExchangeFactsWriter on the recorded samples', () => {
  it('stores every fact exactly as received', async () => {
    const result = await writer.writeBlocks(fixtureBatch(), 'node');
    expect(result).toEqual({ skippedBlocks: 0, fills: 3, twapStatuses: 1, ledgerUpdates: 2, fundingPayments: 2 });

    const [liquidation] = await dataSource.query(
      `SELECT *, time::text AS time_text, block_time::text AS block_time_text FROM fills WHERE tid = 340554939716632`,
    );
    expect(liquidation).toMatchObject({
      address: '0xa775d1bd91ee2cc4cae6113e5fd9c0c17b355277',
      coin: 'SOL',
      px: '72.153',
      sz: '0.58',
      side: 'A',
      start_position: '-162.6',
      dir: 'Open Short',
      closed_pnl: '0.0',
      hash: '0xdc25d330b40799afdd9f043ebc4c38000060eb164f0ab8817fee7e83730b739a',
      oid: '481702553903',
      crossed: false,
      fee: '-0.001255',
      fee_token: 'USDC',
      tid: '340554939716632',
      cloid: '0x00000000000000000000019f08a8bdd8',
      twap_id: null,
      builder: null,
      builder_fee: null,
      liquidated_user: '0x5ef843ccf26810073ee689a954f6d05f5b48fccb',
      liquidation_mark_px: '72.149',
      liquidation_method: 'market',
      // The fixture's address took the other side: it is the liquidator, not the liquidated user.
      is_liquidated_side: false,
      block_number: '1052527672',
    });
    const times: Array<{ time: string; block_time: string }> = await dataSource.query(
      `SELECT to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS time,
              to_char(block_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS block_time
       FROM fills WHERE tid = 340554939716632`,
    );
    expect(times).toEqual([{ time: '2026-06-28T08:43:53.257', block_time: '2026-06-28T08:43:53.257' }]);

    const twapPair = await dataSource.query(
      `SELECT address, side, twap_id, fee, cloid, hash FROM fills WHERE tid = 990908538720549 ORDER BY side`,
    );
    expect(twapPair).toEqual([
      {
        address: '0x1c1c270b573d55b68b3d14722b5d5d401511bed0',
        side: 'A',
        twap_id: null,
        fee: '-0.000903',
        cloid: '0x9152106fa754fb298f52649ec28a812a',
        hash: `0x${'0'.repeat(64)}`,
      },
      {
        address: '0xd7e678a2ad378286d79e278bbccb6438f1a8a064',
        side: 'B',
        twap_id: '1305284',
        fee: '0.040673',
        cloid: null,
        hash: `0x${'0'.repeat(64)}`,
      },
    ]);
    // Each fill went to its month's partition, created on demand.
    const partitions = await dataSource.query(
      `SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM fills GROUP BY 1 ORDER BY 1`,
    );
    expect(partitions).toEqual([
      { part: 'fills_2025_10', n: 2 },
      { part: 'fills_2026_06', n: 1 },
    ]);

    expect(
      await dataSource.query(`SELECT block_number, twap_id, status, description, coin, address, side, sz, executed_sz, executed_ntl, minutes,
                                          reduce_only, randomize, timestamp = '2025-12-04T17:00:22.417Z' AS timestamp_ok, time = '2025-12-04T17:00:22.417Z' AS time_ok
                                   FROM twap_statuses`),
    ).toEqual([
      {
        block_number: '817824346',
        twap_id: '1430699',
        status: 'activated',
        description: null,
        coin: 'HYPE',
        address: '0x9d6a5ab97a8eed617bde9968d9ab6fcf72fde1b8',
        side: 'A',
        sz: '108.36',
        executed_sz: '0.0',
        executed_ntl: '0.0',
        minutes: 10,
        reduce_only: false,
        randomize: false,
        timestamp_ok: true,
        time_ok: true,
      },
    ]);

    // A send touches both users: one row each, same hash.
    const ledger = await dataSource.query(
      `SELECT hash, address, type, usdc, delta->>'amount' AS amount, users, block_number FROM ledger_updates ORDER BY address`,
    );
    const users = ['0x8b1c0722a978599bb254c2bdd75992fa605073f6', '0x2000000000000000000000000000000000000000'];
    const hash = '0x5a44d83dc07d168a5bbe043d705c6c02055b00235b70355cfe0d83907f70f074';
    expect(ledger).toEqual([
      { hash, address: users[1], type: 'send', usdc: null, amount: '500.008953', users, block_number: '1030773868' },
      { hash, address: users[0], type: 'send', usdc: null, amount: '500.008953', users, block_number: '1030773868' },
    ]);

    expect(
      await dataSource.query(`SELECT address, coin, usdc, szi, funding_rate, block_number FROM funding_payments ORDER BY address`),
    ).toEqual([
      {
        address: '0x00000000000dfd47d200dc26e4e5c79b7e6de984',
        coin: 'ZEC',
        usdc: '9.330246',
        szi: '280.0',
        funding_rate: '-0.0000810249',
        block_number: '1030773830',
      },
      {
        address: '0x00000000002f3d928030df28cb15b27b56888b9b',
        coin: 'HYPE',
        usdc: '4.506878',
        szi: '-2744.84',
        funding_rate: '0.0000308526',
        block_number: '1030773830',
      },
    ]);

    expect(await dataSource.query(`SELECT coin, px, block_number FROM market_prices ORDER BY coin`)).toEqual([
      { coin: 'HYPE', px: '48.334', block_number: '776534347' },
      { coin: 'SOL', px: '72.153', block_number: '1052527672' },
    ]);
  });

  it('stores each stream checkpoint as the last position of the batch', async () => {
    const batch = fixtureBatch();
    const rows: Array<{ stream: string; position: unknown }> = await dataSource.query(
      `SELECT stream, position FROM feed_checkpoints WHERE source = 'node' ORDER BY stream`,
    );
    const last = (stream: string) => batch.filter((b) => b.stream === stream).at(-1)!.position;
    expect(rows).toEqual([
      { stream: 'misc_events_by_block', position: last('misc_events_by_block') },
      { stream: 'node_fills_by_block', position: last('node_fills_by_block') },
      { stream: 'node_twap_statuses_by_block', position: last('node_twap_statuses_by_block') },
    ]);
    expect(rows[1]!.position).toEqual({ file: 'test/0', offset: 200, line: 2, lastBlock: 1052527672 });
  });

  it('changes nothing when the same blocks are written again, with or without their checkpoints', async () => {
    const tables = { ...FACT_TABLES, feed_checkpoints: 'source, stream' };
    const before = await dumpTables(dataSource, tables);
    const again = await writer.writeBlocks(fixtureBatch(), 'node');
    expect(again).toEqual({ skippedBlocks: 6, fills: 0, twapStatuses: 0, ledgerUpdates: 0, fundingPayments: 0 });
    expect(await dumpTables(dataSource, tables)).toEqual(before);

    // Without the checkpoints every block is read again: the unique keys alone keep the facts as they were.
    await dataSource.query(`DELETE FROM feed_checkpoints`);
    const replay = await writer.writeBlocks([...fixtureBatch(), ...fixtureBatch()], 'node');
    expect(replay).toEqual({ skippedBlocks: 6, fills: 0, twapStatuses: 0, ledgerUpdates: 0, fundingPayments: 0 });
    const after = await dumpTables(dataSource, tables);
    expect({ ...after, feed_checkpoints: undefined }).toEqual({ ...before, feed_checkpoints: undefined });
    expect(after.feed_checkpoints!.length).toBe(3);
  });

  it('never moves a checkpoint back for an older block', async () => {
    const before = await dataSource.query(`SELECT position FROM feed_checkpoints WHERE source = 'node' AND stream = 'node_fills_by_block'`);
    const old = movedFill({ tid: 5, timeMs: Date.UTC(2026, 5, 28, 8), blockNumber: 1_000 });
    const result = await writer.writeBlocks([feedBlock('node_fills_by_block', old, 9)], 'node');
    expect(result.skippedBlocks).toBe(1);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM fills WHERE tid = 5`)).toEqual([{ n: 0 }]);
    expect(
      await dataSource.query(`SELECT position FROM feed_checkpoints WHERE source = 'node' AND stream = 'node_fills_by_block'`),
    ).toEqual(before);
  });

  it('creates the partition of a month that has none, moving in rows the default partition caught', async () => {
    const exists = async (name: string) => (await dataSource.query(`SELECT to_regclass($1) IS NOT NULL AS e`, [name]))[0].e as boolean;
    expect(await exists('fills_2031_02')).toBe(false);
    // A row written around the writer (no partition for its month yet) lands in the default partition.
    await dataSource.query(
      `INSERT INTO fills (address, coin, px, sz, side, time, start_position, dir, closed_pnl, hash, oid, crossed, fee, tid, is_liquidated_side, block_number, block_time)
       VALUES ('0xabc', 'SOL', '1', '1', 'B', '2031-02-01T00:00:00Z', '0', 'Open Long', '0', '0x', 1, true, '0', 77, false, 1, '2031-02-01T00:00:00Z')`,
    );
    const fill = movedFill({ tid: 78, timeMs: Date.UTC(2031, 1, 28, 23, 59, 59, 999), blockNumber: 3_000_000_000 });
    expect((await writer.writeBlocks([feedBlock('node_fills_by_block', fill, 10)], 'node')).fills).toBe(1);
    expect(await exists('fills_2031_02')).toBe(true);
    expect(await dataSource.query(`SELECT tid, tableoid::regclass::text AS part FROM fills WHERE tid IN (77, 78) ORDER BY tid`)).toEqual([
      { tid: '77', part: 'fills_2031_02' },
      { tid: '78', part: 'fills_2031_02' },
    ]);
    // The partition is a month of UTC: the next millisecond belongs to the next month.
    const bounds = await dataSource.query(`SELECT pg_get_expr(relpartbound, oid) AS bound FROM pg_class WHERE relname = 'fills_2031_02'`);
    expect(bounds[0].bound).toBe(`FOR VALUES FROM ('2031-02-01 00:00:00+00') TO ('2031-03-01 00:00:00+00')`);
  });

  it('moves market prices forward only', async () => {
    const price = async () => (await dataSource.query(`SELECT px, block_number FROM market_prices WHERE coin = 'SOL'`))[0];
    const at = Date.UTC(2031, 2, 1);
    // Another source, so its checkpoint does not skip the older block: only the price rule decides.
    await writer.writeBlocks(
      [feedBlock('node_fills_by_block', movedFill({ tid: 90, timeMs: at, blockNumber: 4_000_000_002, px: '80.5' }), 1)],
      'px-test-a',
    );
    expect(await price()).toEqual({ px: '80.5', block_number: '4000000002' });
    await writer.writeBlocks(
      [feedBlock('node_fills_by_block', movedFill({ tid: 91, timeMs: at - 1, blockNumber: 4_000_000_001, px: '79.0' }), 1)],
      'px-test-b',
    );
    expect(await price()).toEqual({ px: '80.5', block_number: '4000000002' });
    // Within one batch the later block wins whatever its place in the batch.
    await writer.writeBlocks(
      [
        feedBlock('node_fills_by_block', movedFill({ tid: 93, timeMs: at + 2, blockNumber: 4_000_000_004, px: '81.25' }), 1),
        feedBlock('node_fills_by_block', movedFill({ tid: 92, timeMs: at + 1, blockNumber: 4_000_000_003, px: '81.0' }), 2),
      ],
      'px-test-c',
    );
    expect(await price()).toEqual({ px: '81.25', block_number: '4000000004' });
  });
});

describe('ExchangeFactsWriter steps', () => {
  it('runs the open-order book as its registered step, and after the commit confirms the book kept in memory and keeps the fills committed for the projection', () => {
    expect(writer.steps.names).toEqual({ steps: ['open-orders'], afterCommit: ['open-orders', 'recent-fills'] });
  });

  it('rolls the whole batch back when a registered step fails, and runs hooks only after a commit', async () => {
    // A writer of its own: the steps registered here must not reach the other tests' writer.
    const own = await startedWriter(dataSource, ExchangeFactsWriter);
    const fresh = movedFill({ tid: 990_001, timeMs: Date.UTC(2026, 5, 28, 9), blockNumber: 990_001_000 });
    const before = await dumpTables(dataSource, { ...FACT_TABLES, feed_checkpoints: 'source, stream' });
    const committed: unknown[] = [];
    let failing = true;
    own.steps.register({
      name: 'test-step',
      run: async (q, batch) => {
        // Inside the transaction the step sees the batch's rows.
        expect(await q.query(`SELECT count(*)::int AS n FROM fills WHERE tid = 990001`)).toEqual([{ n: 1 }]);
        expect(batch.blocks.map((b) => b.blockNumber)).toEqual([990_001_000]);
        if (failing) throw new Error('step failed');
      },
    });
    own.steps.registerAfterCommit({
      name: 'test-hook',
      afterCommit: async (batch) =>
        void committed.push(
          ...(await dataSource.query(`SELECT tid::text, source FROM fills, (SELECT $1::text AS source) s WHERE tid = 990001`, [
            batch.source,
          ])),
        ),
    });

    await expect(own.writeBlocks([feedBlock('node_fills_by_block', fresh, 9_001)], 'steps-test')).rejects.toThrow('step failed');
    expect(await dumpTables(dataSource, { ...FACT_TABLES, feed_checkpoints: 'source, stream' })).toEqual(before);
    expect(committed).toEqual([]);

    failing = false;
    expect((await own.writeBlocks([feedBlock('node_fills_by_block', fresh, 9_001)], 'steps-test')).fills).toBe(1);
    expect(committed).toEqual([{ tid: '990001', source: 'steps-test' }]);
  });
});
