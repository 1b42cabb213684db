import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { feedBlock, fixtureBlocks, fixtureJson, openFactsDatabase, startedWriter, useTestEnvironment } from '#testing';
import { InfoStateSource, type InfoRequester, type NodeFillsBlock } from '#exchange';
import { ExchangeFactsWriter } from '../facts/exchange-facts.writer.js';
import { InfoStateUpdates } from './info-state.updates.js';

const config = useTestEnvironment();
let dataSource: DataSource;
let facts: ExchangeFactsWriter;

// The liquidation sample's two wallets; the info server answers both with the recorded clearinghouse state.
const LIQUIDATION = fixtureBlocks('node_fills_by_block_liquidation.json', 'node_fills_by_block')[0] as NodeFillsBlock;
const info: InfoRequester = {
  async request(body) {
    if (body.type === 'clearinghouseState') return fixtureJson('info_clearinghouseState.json');
    if (body.type === 'spotClearinghouseState') return { balances: [] };
    if (body.type === 'allMids') return fixtureJson('info_allMids.json');
    throw new Error(`unexpected ${body.type}`);
  },
};

beforeAll(async () => {
  ({ dataSource, writer: facts } = await openFactsDatabase(config.DATABASE_URL));
});

afterAll(async () => {
  await dataSource?.destroy();
});

describe('InfoStateUpdates (EXCHANGE_SOURCE=node)', () => {
  it('reads the wallets that traded and stamps the state with the newest stored block', async () => {
    const updates = await startedWriter(dataSource, InfoStateUpdates);
    const source = new InfoStateSource(info);
    expect((await updates.run(source, { heightFromTime: false, nowMs: Date.now() })).result).toBeNull();

    await facts.writeBlocks([feedBlock('node_fills_by_block', LIQUIDATION, 1)], 'node');
    const { result, failures } = await updates.run(source, { heightFromTime: false, nowMs: Date.now() });
    expect(failures).toEqual([]);
    expect(result).toMatchObject({ applied: true, wallets: 1, positions: 12, newWallets: 1 });
    expect(await dataSource.query(`SELECT height::int, state_time FROM state_updates`)).toEqual([
      { height: LIQUIDATION.blockNumber, state_time: new Date(LIQUIDATION.events[0]!.fill.time) },
    ]);
    expect(await dataSource.query(`SELECT address, perp_equity::text, count_open_positions FROM wallets`)).toEqual([
      { address: LIQUIDATION.events[0]!.address, perp_equity: '1182.312496', count_open_positions: 12 },
    ]);
  });
});
