import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { parseBlockLine, type NodeBlock, type NodeStream } from '#exchange';
import type { Type } from '@nestjs/common';
import { ExchangeFactsWriter, openMarketWriteContext, type FeedBlock } from '#market';
import { fixtureJson } from './hyperliquid-fixtures.js';
import { resetDatabase } from './reset.js';

export interface TestPosition {
  file: string;
  offset: number;
  line: number;
  lastBlock: number | null;
}

/** Parses one block line; a line with any issue fails the test rather than storing half a block. */
export function parseLine(stream: NodeStream, text: string): NodeBlock {
  const result = parseBlockLine(stream, text, {});
  if (!result.ok) throw new Error(result.error.message);
  if (result.issues.length > 0) throw new Error(`${result.issues[0]!.path} ${result.issues[0]!.message}`);
  return result.value;
}

export function feedBlock(stream: NodeStream, block: NodeBlock, line: number): FeedBlock<TestPosition> {
  return { stream, block, position: { file: 'test/0', offset: line * 100, line, lastBlock: block.blockNumber } };
}

/** A pretty-printed fixture block (or each element of an array fixture) as the hl-node line it was. */
export function fixtureBlocks(name: string, stream: NodeStream): NodeBlock[] {
  const json = fixtureJson(name);
  return (Array.isArray(json) ? json : [json]).map((value) => parseLine(stream, JSON.stringify(value)));
}

export const FACT_TABLES: Record<string, string> = {
  fills: 'tid, address',
  twap_statuses: 'twap_id, status, block_number',
  ledger_updates: 'hash, address, type',
  funding_payments: 'address, coin, time',
  market_prices: 'coin',
};

/** Every row of the tables, ordered by key, as text: what "unchanged" is compared on. */
export async function dumpTables(dataSource: DataSource, tables: Record<string, string>): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
  for (const [table, key] of Object.entries(tables)) {
    const rows: Array<{ row: string }> = await dataSource.query(`SELECT t::text AS row FROM ${table} t ORDER BY ${key}`);
    dump[table] = rows.map((r) => r.row);
  }
  return dump;
}

/**
 * `type` (a writer, ingestion or projector) from a newly started write side on `dataSource`: what a
 * process has after a start, with the production module's wiring and registered steps, nothing kept in
 * memory from an earlier one.
 */
export async function startedWriter<T>(dataSource: DataSource, type: Type<T>): Promise<T> {
  return (await openMarketWriteContext(dataSource)).get(type);
}

/** A migrated, emptied test database, a connection to it and a facts writer on that connection. */
export async function openFactsDatabase(databaseUrl: string): Promise<{ dataSource: DataSource; writer: ExchangeFactsWriter }> {
  await resetDatabase(databaseUrl);
  const dataSource = new DataSource(dataSourceOptions(databaseUrl));
  await dataSource.initialize();
  return { dataSource, writer: await startedWriter(dataSource, ExchangeFactsWriter) };
}
