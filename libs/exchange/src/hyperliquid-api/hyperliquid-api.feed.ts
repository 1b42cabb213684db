import { formatIssue, type ParseIssue, type ParseResult } from '../parse/parse-result.js';
import { parseLedgerUpdates } from '../ledger/ledger-delta.parser.js';
import { activityBlocks } from './activity-blocks.js';
import { AddressSession } from './address.session.js';
import {
  API_STREAMS,
  emptyActivity,
  type AddressCursors,
  type AddressState,
  type AddressStateChange,
  type ApiFeedBlock,
  type ApiStream,
  type UserActivity,
} from './hyperliquid-api.types.js';
import { HyperliquidInfoClient, type InfoClientOptions } from './info.client.js';
import { RecentKeys } from './recent-keys.js';
import { parseInfoFills, parseInfoFundings } from './user-channel.parser.js';
import type { WsClientOptions } from './ws.client.js';

/** Most items one info response holds (the API's documented caps); a full page means there may be more. */
export const INFO_PAGE_LIMITS = { userFillsByTime: 2000, userFunding: 500, userNonFundingLedgerUpdates: 500 };

export type InfoPageLimits = typeof INFO_PAGE_LIMITS;

export interface HyperliquidApiFeedOptions {
  infoUrl: string;
  wsUrl: string;
  /** Lower-case 0x addresses. */
  addresses: string[];
  /** Where the backfill of an address without a cursor begins (epoch ms). */
  backfillFromMs: number;
  /** The stored cursors, per stream. */
  cursors?: Partial<Record<ApiStream, AddressCursors>>;
  /**
   * Backfill starts this long before a cursor: events of one millisecond can straddle a page or a
   * disconnect, and repeats cost nothing (they are dropped).
   */
  backfillOverlapMs?: number;
  pageLimits?: Partial<InfoPageLimits>;
  info?: InfoClientOptions;
  ws?: WsClientOptions;
  /** Keys remembered per address and kind of event for dropping repeats (a snapshot holds at most a few thousand). */
  recentKeys?: number;
  onStateChange?(change: AddressStateChange): void;
  now?(): number;
}

export interface HyperliquidApiBatch {
  blocks: ApiFeedBlock[];
  issues: ParseIssue[];
}

interface SeenKeys {
  fills: RecentKeys;
  fundings: RecentKeys;
  ledger: RecentKeys;
  twaps: RecentKeys;
}

/**
 * The `hyperliquid` feed source: fills, funding, ledger updates and TWAP statuses of the tracked
 * addresses, from the public websocket with info-API backfill on start and after every reconnection,
 * as normalised blocks (see activityBlocks for the synthetic block numbers). Each event is handed over
 * once per process whichever way it came (snapshot frame, backfill page, live frame); across restarts
 * the tables' unique keys keep a repeat out. Every block carries its stream's cursors as they stand
 * after it, to be stored with it.
 */
export class HyperliquidApiFeed {
  private readonly info: HyperliquidInfoClient;
  private readonly sessions: AddressSession[];
  private readonly cursors: Record<ApiStream, AddressCursors>;
  private readonly seen = new Map<string, SeenKeys>();
  private readonly states = new Map<string, AddressState>();
  private readonly pageLimits: InfoPageLimits;
  private readonly overlapMs: number;
  private readonly now: () => number;
  private queue: ApiFeedBlock[] = [];
  private issues: ParseIssue[] = [];
  private wake?: () => void;
  private running = false;

  constructor(private readonly options: HyperliquidApiFeedOptions) {
    this.info = new HyperliquidInfoClient(options.infoUrl, options.info);
    this.pageLimits = { ...INFO_PAGE_LIMITS, ...options.pageLimits };
    this.overlapMs = options.backfillOverlapMs ?? 60_000;
    this.now = options.now ?? Date.now;
    this.cursors = Object.fromEntries(API_STREAMS.map((stream) => [stream, { ...options.cursors?.[stream] }])) as Record<
      ApiStream,
      AddressCursors
    >;
    const sink = {
      accept: (address: string, activity: UserActivity) => this.accept(address, activity),
      report: (issue: ParseIssue) => this.report(issue),
      state: (change: AddressStateChange) => this.changeState(change),
      backfill: (address: string, signal: AbortSignal) => this.backfill(address, signal),
    };
    this.sessions = options.addresses.map((address) => new AddressSession(address, options.wsUrl, options.ws ?? {}, sink));
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    for (const session of this.sessions) session.start();
  }

  /** Closes every connection; blocks not taken yet are dropped (their cursors were never stored, so a restart backfills them). */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await Promise.all(this.sessions.map((session) => session.stop()));
  }

  stateOf(address: string): AddressState | undefined {
    return this.states.get(address);
  }

  /** Up to `maxBlocks` blocks in arrival order and the issues met so far, waiting up to `waitMs` for anything to arrive. */
  async next(maxBlocks: number, waitMs: number): Promise<HyperliquidApiBatch> {
    if (this.queue.length === 0 && this.issues.length === 0 && this.running && waitMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    const blocks = this.queue.splice(0, maxBlocks);
    const issues = this.issues;
    this.issues = [];
    return { blocks, issues };
  }

  private accept(address: string, activity: UserActivity): void {
    const blocks = activityBlocks(address, this.dropRepeats(address, activity), this.now());
    for (const block of blocks) {
      const stream = block.stream;
      const cursors = this.cursors[stream];
      cursors[address] = Math.max(cursors[address] ?? 0, block.blockTimeMs);
      this.queue.push({ stream, block, position: { lastBlock: null, cursors: { ...cursors } } });
    }
    if (blocks.length > 0) this.wake?.();
  }

  private report(issue: ParseIssue): void {
    this.issues.push(issue);
    this.wake?.();
  }

  private changeState(change: AddressStateChange): void {
    this.states.set(change.address, change.state);
    this.options.onStateChange?.(change);
  }

  private dropRepeats(address: string, activity: UserActivity): UserActivity {
    let seen = this.seen.get(address);
    if (!seen) {
      const capacity = this.options.recentKeys ?? 10_000;
      seen = {
        fills: new RecentKeys(capacity),
        fundings: new RecentKeys(capacity),
        ledger: new RecentKeys(capacity),
        twaps: new RecentKeys(capacity),
      };
      this.seen.set(address, seen);
    }
    const { fills, fundings, ledger, twaps } = seen;
    // The same identities as the tables' unique keys, within one address.
    return {
      fills: activity.fills.filter((fill) => fills.add(String(fill.tid))),
      fundings: activity.fundings.filter((funding) => fundings.add(`${funding.coin}|${funding.time}`)),
      ledger: activity.ledger.filter((update) =>
        ledger.add(`${update.hash}|${update.delta.type === 'unknown' ? update.delta.wireType : update.delta.type}`),
      ),
      twaps: activity.twaps.filter((twap) => twaps.add(`${twap.twapId}|${twap.status}|${twap.timeMs}`)),
    };
  }

  private startOf(stream: ApiStream, address: string): number {
    const cursor = this.cursors[stream][address];
    return cursor === undefined ? this.options.backfillFromMs : Math.max(0, cursor - this.overlapMs);
  }

  /**
   * Fills, then funding, then ledger updates of one address, each from where its stream stood when the
   * backfill began (funding and ledger share the misc stream, so both start from its cursor as it was).
   */
  private async backfill(address: string, signal: AbortSignal): Promise<void> {
    const fillsFrom = this.startOf('node_fills_by_block', address);
    const miscFrom = this.startOf('misc_events_by_block', address);
    const info = this.info;
    await this.pages(
      address,
      'userFillsByTime',
      fillsFrom,
      (start) => info.userFillsByTime(address, start, signal),
      parseInfoFills,
      (fills) => ({ ...emptyActivity(), fills }),
      (fill) => fill.time,
    );
    await this.pages(
      address,
      'userFunding',
      miscFrom,
      (start) => info.userFunding(address, start, signal),
      parseInfoFundings,
      (fundings) => ({ ...emptyActivity(), fundings }),
      (funding) => funding.time,
    );
    await this.pages(
      address,
      'userNonFundingLedgerUpdates',
      miscFrom,
      (start) => info.userNonFundingLedgerUpdates(address, start, signal),
      parseLedgerUpdates,
      (ledger) => ({ ...emptyActivity(), ledger }),
      (update) => update.time,
    );
  }

  /** Pages through one info list: the API answers the oldest items from `startTime` on, so the next page starts at the last time seen. */
  private async pages<T>(
    address: string,
    type: keyof InfoPageLimits,
    from: number,
    fetchPage: (startTime: number) => Promise<unknown>,
    parse: (value: unknown, source: { stream: string }) => ParseResult<T[]>,
    toActivity: (items: T[]) => UserActivity,
    timeOf: (item: T) => number,
  ): Promise<void> {
    const source = { stream: `info ${type} ${address}` };
    const limit = this.pageLimits[type];
    let start = from;
    for (;;) {
      const response = await fetchPage(start);
      const parsed = parse(response, source);
      if (!parsed.ok) throw new Error(formatIssue(parsed.error));
      for (const issue of parsed.issues) this.report(issue);
      this.accept(address, toActivity(parsed.value));
      if ((response as unknown[]).length < limit) return;
      // A full page may end inside a millisecond: ask again from it (its repeats are dropped), or from
      // the next one if the whole page was that millisecond.
      const last = parsed.value.reduce((max, item) => Math.max(max, timeOf(item)), start);
      start = last > start ? last : start + 1;
    }
  }
}
