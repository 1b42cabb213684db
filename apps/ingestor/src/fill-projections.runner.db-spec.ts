import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { FillProjector } from '#market';
import { address, feed, fillsBlock, openFactsDatabase, startedWriter, useTestEnvironment, wireFill } from '#testing';
import { JsonLogger } from '#runtime';
import { FillProjectionsRunner } from './fill-projections.runner.js';

const config = useTestEnvironment();
let dataSource: DataSource;

beforeAll(async () => {
  const opened = await openFactsDatabase(config.DATABASE_URL);
  dataSource = opened.dataSource;
  // A round trip of one wallet, stored by the simulator feed.
  const W = address(0x5151);
  const T = Date.UTC(2026, 5, 28, 10);
  await opened.writer.writeBlocks(
    feed([
      fillsBlock(5, T, [[W, wireFill({ coin: 'ETH', tid: 1, time: T, side: 'B', px: '3000', sz: '1' })]]),
      fillsBlock(6, T + 1_000, [
        [W, wireFill({ coin: 'ETH', tid: 2, time: T + 1_000, side: 'A', px: '3010', sz: '1', startPosition: '1', closedPnl: '10' })],
      ]),
    ]),
    'simulator',
  );
});

afterAll(async () => {
  await dataSource?.destroy();
});

describe('FillProjectionsRunner', () => {
  it('projects what the chosen feed stored and stops cleanly', async () => {
    // The runner needs only the feed's name.
    const runner = new FillProjectionsRunner(
      await startedWriter(dataSource, FillProjector),
      { name: 'simulator' },
      new JsonLogger('silent'),
    );
    runner.onApplicationBootstrap();
    let trades: Array<{ realized_pnl_usd: string }> = [];
    for (let attempt = 0; attempt < 200 && trades.length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      trades = await dataSource.query(`SELECT realized_pnl_usd::text FROM closed_trades`);
    }
    await runner.onApplicationShutdown();
    expect(trades).toEqual([{ realized_pnl_usd: '10' }]);
    const [checkpoint] = await dataSource.query(`SELECT name, position->>'fillsBlock' AS block FROM projection_checkpoints`);
    expect(checkpoint).toEqual({ name: 'fills:simulator', block: '6' });
  });
});
