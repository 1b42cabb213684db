import { describe, expect, it } from '@jest/globals';
import { parseUserFills } from './fills/fill.parser.js';
import { fixtureJson, fixtureNames, fixtureText } from '#testing';
import { parseClearinghouseState } from './info/clearinghouse-state.parser.js';
import { parseDelegatorHistory } from './info/delegator-history.parser.js';
import { parseFundingHistory, parseUserFunding } from './info/funding.parser.js';
import { parseAllMids, parseL2Book, parseMeta } from './info/market-info.parser.js';
import { parseLedgerUpdates } from './ledger/ledger-delta.parser.js';
import { parseBlock, parseBlockLine } from './node/node-block.parser.js';
import { parseFrontendOpenOrders, parseHistoricalOrders, parseOpenOrders } from './orders/order.parser.js';
import type { ParseIssue, ParseResult, ParseSource } from './parse/parse-result.js';
import { parseWsFrame } from './ws/ws-frame.parser.js';

/** Parses a fixture file; returns how many records it gave and every issue. */
type FixtureParser = (file: string) => { records: number; issues: ParseIssue[] };

function whole<T>(parse: (value: unknown, source: ParseSource) => ParseResult<T>, count: (value: T) => number): FixtureParser {
  return (file) => {
    const result = parse(fixtureJson(file), { file });
    return result.ok ? { records: count(result.value), issues: result.issues } : { records: 0, issues: [result.error] };
  };
}

const list = <T>(parse: (value: unknown, source: ParseSource) => ParseResult<T[]>) => whole(parse, (items) => items.length);
const one = <T>(parse: (value: unknown, source: ParseSource) => ParseResult<T>) => whole(parse, () => 1);

/** A node_* fixture holds one block line, or (misc) an array of them: each is parsed as a line. */
const blocks =
  (stream: string): FixtureParser =>
  (file) => {
    const value = fixtureJson(file);
    const lines = Array.isArray(value) ? value.map((block) => JSON.stringify(block)) : [fixtureText(file)];
    let records = 0;
    const issues: ParseIssue[] = [];
    lines.forEach((text, index) => {
      const result = parseBlockLine(stream, text, { file, line: index + 1 });
      if (result.ok) {
        records += result.value.events.length;
        issues.push(...result.issues);
      } else issues.push(result.error);
    });
    return { records, issues };
  };

const frames: FixtureParser = (file) => {
  const results = (fixtureJson(file) as unknown[]).map((frame, index) => parseWsFrame(frame, { file, line: index + 1 }));
  return {
    records: results.filter((result) => result.ok).length,
    issues: results.flatMap((result) => (result.ok ? result.issues : [result.error])),
  };
};

/** Every fixture file, its parser and how many records it must give. */
const PARSERS: Record<string, [FixtureParser, number]> = {
  'info_allMids.json': [whole(parseAllMids, (mids) => Object.keys(mids).length), 28],
  'info_clearinghouseState.json': [whole(parseClearinghouseState, (state) => state.assetPositions.length), 12],
  'info_delegatorHistory.json': [list(parseDelegatorHistory), 4],
  'info_frontendOpenOrders.json': [list(parseFrontendOpenOrders), 3],
  'info_fundingHistory_BTC.json': [list(parseFundingHistory), 34],
  'info_historicalOrders.json': [list(parseHistoricalOrders), 5],
  'info_l2Book_DYDX.json': [one(parseL2Book), 1],
  'info_meta.json': [whole(parseMeta, (meta) => meta.universe.length), 28],
  'info_openOrders.json': [list(parseOpenOrders), 196],
  'info_userFills.json': [list(parseUserFills), 500],
  'info_userFunding.json': [list(parseUserFunding), 13],
  'info_userNonFundingLedgerUpdates.json': [list(parseLedgerUpdates), 5],
  'node_fills_by_block_liquidation.json': [blocks('node_fills_by_block'), 1],
  'node_fills_by_block_twap.json': [blocks('node_fills_by_block'), 2],
  'node_misc_events_by_block.json': [blocks('misc_events_by_block'), 5],
  'node_order_statuses_by_block_excerpt.json': [blocks('node_order_statuses_by_block'), 3],
  'node_twap_statuses_by_block.json': [blocks('node_twap_statuses_by_block'), 1],
  'ws_frames_mixed.json': [frames, 5],
};

describe('every fixture in fixtures/hyperliquid', () => {
  it('has a parser here (a new fixture must be added to this table)', () => {
    expect(fixtureNames()).toEqual(Object.keys(PARSERS).sort());
  });

  it.each(Object.entries(PARSERS))('%s parses whole, without an issue', (file, [parse, expected]) => {
    expect(parse(file)).toEqual({ records: expected, issues: [] });
  });

  it('node fixtures parse the same from their JSON value as from their line text', () => {
    const value = fixtureJson('node_fills_by_block_twap.json');
    const fromValue = parseBlock('node_fills_by_block', value, { file: 'twap', line: 1 });
    const fromLine = parseBlockLine('node_fills_by_block', JSON.stringify(value), { file: 'twap', line: 1 });
    expect(fromLine).toEqual(fromValue);
  });
});
