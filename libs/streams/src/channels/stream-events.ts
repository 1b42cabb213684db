import { activityFill, liquidationGroups, matchInputFromBlocks, type FillsBlockOccurrence, type LedgerOccurrence } from '#alerts';
import type { NodeBlock } from '#exchange';
import Big from 'big.js';
import type { StreamEvent } from './stream-event.js';

const NO_PRICES = new Map<string, never>();

/** The events of committed blocks, channel by channel in block order: what every api process fans out. */
export function streamEventsOf(blocks: readonly NodeBlock[]): StreamEvent[] {
  const input = matchInputFromBlocks(blocks, NO_PRICES);
  const events: StreamEvent[] = [];
  for (const block of input.fillBlocks) {
    events.push(...fillEvents(block), ...liquidationEvents(block));
  }
  for (const entry of input.ledger) events.push(ledgerEvent(entry));
  return events;
}

function fillEvents(block: FillsBlockOccurrence): StreamEvent[] {
  return block.fills.map(({ address, fill }, index) => ({
    channel: 'fills',
    eventId: `fill:${fill.tid}:${address}`,
    cursor: { block: block.blockNumber, index },
    coin: fill.coin,
    addresses: [address],
    side: fill.side,
    notionalUsd: new Big(fill.px).times(fill.sz).toFixed(),
    data: { address, ...activityFill(address, fill, block) },
  }));
}

/** One event per liquidated wallet and market of a source hash, as the `liquidation` alert groups them. */
function liquidationEvents(block: FillsBlockOccurrence): StreamEvent[] {
  const events: StreamEvent[] = liquidationGroups(block).flatMap(({ hash, groups }) =>
    groups.map((g) => ({
      channel: 'liquidations' as const,
      eventId: `liquidation:${hash}:${g.address}:${g.market}`,
      cursor: { block: block.blockNumber, index: g.firstIndex },
      coin: g.market,
      addresses: [g.address],
      side: g.side,
      notionalUsd: g.notional.toFixed(),
      data: g.data,
    })),
  );
  return events.sort((a, b) => a.cursor.index - b.cursor.index);
}

function ledgerEvent(e: LedgerOccurrence): StreamEvent {
  const users = [...new Set(e.users.map((u) => u.toLowerCase()))];
  return {
    channel: 'ledger',
    eventId: `ledger:${e.name}`,
    cursor: { block: e.blockNumber, index: e.index },
    coin: null,
    addresses: users,
    side: null,
    notionalUsd: new Big(e.amount).abs().toFixed(),
    data: { hash: e.name, type: e.type, amount: e.amount, users: e.users, time: e.timeMs },
  };
}
