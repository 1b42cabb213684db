import { afterAll, beforeAll, beforeEach } from '@jest/globals';
import { DataSource } from 'typeorm';
import { nodeTime, type ExchangeState } from '#exchange';
import {
  exchangeState,
  feedBlock,
  openFactsDatabase,
  parseLine,
  positionState,
  resetDatabase,
  startedWriter,
  useTestEnvironment,
  walletState,
} from '#testing';
import { ExchangeFactsWriter } from '../facts/exchange-facts.writer.js';
import { MarketStateWriter, type ApplyStateOptions } from './market-state.writer.js';

// What the MarketStateWriter database specs share (market-state.writer and market-state.apply).

export const config = useTestEnvironment();
// Set by useStateDatabase's beforeAll; the specs read them through the module's live bindings.
export let dataSource: DataSource;
let facts: ExchangeFactsWriter;
export let writer: MarketStateWriter;

export const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);
export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
export const A = address(0xa);
export const B = address(0xb);

export const wallet = walletState;
export const position = positionState;
export const state = exchangeState;

/** One hl-node fill line of `addr` (the real format, read by the real parser). */
export async function storeFill(
  addr: string,
  fill: { coin: string; side: 'A' | 'B'; sz: string; startPosition: string; timeMs: number; tid: number },
): Promise<void> {
  const time = nodeTime(fill.timeMs, 0);
  const line = JSON.stringify({
    local_time: time,
    block_time: time,
    block_number: fill.tid,
    events: [
      [
        addr,
        {
          coin: fill.coin,
          px: '100.0',
          sz: fill.sz,
          side: fill.side,
          time: fill.timeMs,
          startPosition: fill.startPosition,
          dir: 'Open Long',
          closedPnl: '0.0',
          hash: `0x${'1'.repeat(64)}`,
          oid: fill.tid,
          crossed: true,
          fee: '0.01',
          tid: fill.tid,
          feeToken: 'USDC',
          twapId: null,
        },
      ],
    ],
  });
  await facts.writeBlocks([feedBlock('node_fills_by_block', parseLine('node_fills_by_block', line), fill.tid)], 'test');
}

/** The state-writer specs' database: opened once with a facts writer and a state writer, emptied before each test. */
export function useStateDatabase(): void {
  beforeAll(async () => {
    ({ dataSource, writer: facts } = await openFactsDatabase(config.DATABASE_URL));
    writer = await startedWriter(dataSource, MarketStateWriter);
  });

  beforeEach(async () => {
    await resetDatabase(config.DATABASE_URL);
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });
}

export const apply = (target: MarketStateWriter, update: ExchangeState, options: ApplyStateOptions = {}) => target.apply(update, options);
