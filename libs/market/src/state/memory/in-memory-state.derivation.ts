import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';
import type { ExchangeState, PositionStateRecord } from '#exchange';
import { StateModel } from './state-model.js';
import { StateModelRepository, type GroupUpdate } from './state-model.repository.js';
import { snapshotRows } from './state-snapshot-rows.js';

/** One update of a group, validated by the writer. */
export interface StagedUpdate {
  state: ExchangeState;
  staged: ReadonlyArray<{ address: string; position: PositionStateRecord }>;
  stateTime: string;
}

/** What the derivation reports of each update to the writer's result. */
export interface DerivedCounts {
  newWallets: number;
  openedPositions: number;
  closedPositions: number;
  cohortSnapshotRows: number;
  holderChanges: number;
}

/** The writer's step timer: runs `work` and adds its milliseconds to the step's. */
export type Timed = <T>(step: string, work: () => Promise<T>) => Promise<T>;

/**
 * State updates derived in the ingestor's memory (MarketStateWriter's `inMemory`): the wallets and open
 * positions as the previous update left them are kept here (a StateModel), each update's rows are computed
 * from them and the new state in TypeScript with Postgres's numeric rules, and a group of updates is written
 * in a few statements: every update's history rows, and the wallets and positions once, as the last update
 * of the group left them. The set-based SQL derivation stages every position of every update by COPY,
 * rewrites every open position and wallet, and reads them all back for the snapshots; for the simulator's
 * few hundred wallets over a catch-up that was most of its state updates' cost. Both write the same rows
 * (market-state.writer.db-spec.ts runs its cases through both; the simulated first start's fast-path spec
 * compares every table).
 *
 * The model is read from the tables whenever it is not of the newest applied update (at start, after another
 * writer's update, after a failure), and kept only once the group's transaction commits.
 */
@Injectable()
export class InMemoryStateDerivation {
  private model: StateModel | null = null;
  private pending: StateModel | null = null;
  private coinOrder = new Map<string, number>();

  constructor(private readonly repository: StateModelRepository) {}

  async applyGroup(q: SqlRunner, updates: readonly StagedUpdate[], latestHeight: number | null, timed: Timed): Promise<DerivedCounts[]> {
    const model = this.model?.height === latestHeight ? this.model : await timed('load', () => this.repository.load(q, latestHeight));
    // Changed from here on: kept only once the transaction commits.
    this.model = null;
    const coins = new Set<string>();
    for (const { staged } of updates) for (const { position } of staged) if (!this.coinOrder.has(position.coin)) coins.add(position.coin);
    if (coins.size > 0) this.coinOrder = await this.repository.coinOrder(q, [...this.coinOrder.keys(), ...coins]);

    const written: GroupUpdate[] = await timed('derive', async () => {
      const rows: GroupUpdate[] = [];
      for (const { state, staged, stateTime } of updates) {
        const history = model.apply(state.height, stateTime, state.timeMs, state.wallets, staged, state.hypePx);
        const cutoffs = await this.repository.cutoffsAndOpenTimes(q, stateTime, history.opened);
        rows.push({ stateTime, history, snapshots: snapshotRows(model, cutoffs) });
      }
      return rows;
    });
    await timed('history', () => this.repository.writeHistory(q, written));
    await timed('wallets and positions', () => this.repository.writeCurrent(q, model, this.coinOrder));
    this.pending = model;
    return written.map(({ history, snapshots }) => ({
      newWallets: history.newWallets,
      openedPositions: history.opened.length,
      closedPositions: history.closed,
      cohortSnapshotRows: snapshots.cohorts.length,
      holderChanges: history.holderRows.length,
    }));
  }

  /** The group derived last has committed: its model is the one to derive the next from. */
  committed(): void {
    this.pending?.stored();
    this.model = this.pending;
    this.pending = null;
  }

  /** The group derived last rolled back: the model is read again for the next. */
  discard(): void {
    this.model = null;
    this.pending = null;
  }
}
