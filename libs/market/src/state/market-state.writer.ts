import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoTime, ReadVersionsRepository, WriterSteps, type SqlRunner } from '#database';
import type { ExchangeState, PositionStateRecord } from '#exchange';
import { PositionsStateRepository } from './positions-state.repository.js';
import { StateSnapshotsRepository } from './state-snapshots.repository.js';
import { StateStagingRepository } from './state-staging.repository.js';
import { StateUpdatesRepository } from './state-updates.repository.js';
import { WalletStateRepository } from './wallet-state.repository.js';

export interface StateUpdateResult {
  /** False when an update at this height or a newer one was already applied: nothing was written. */
  applied: boolean;
  wallets: number;
  newWallets: number;
  positions: number;
  openedPositions: number;
  closedPositions: number;
  cohortSnapshotRows: number;
  holderChanges: number;
  /** Milliseconds per step, for logs and the benchmark. */
  timings: Record<string, number>;
}

export class InvalidStateError extends Error {}

export interface ApplyStateOptions {
  /** When the update was processed (state_updates.processed_at); now by default. */
  processedAt?: Date;
  /**
   * A later update of the same run is planned to follow (a catch-up through many boundaries): the tables
   * that hold only the newest update's figures, the wallet rankings and PnL periods, are left to it. It
   * rewrites them whole from the wallets and their PnL history, so they end the same as if every update
   * had written them; until then they read as of the last update that wrote them (wallet_rankings_status
   * gives its time).
   */
  laterUpdateFollows?: boolean;
}

/** The writer's step timer: runs `work` and adds its milliseconds to the step's. */
type Timed = <T>(step: string, work: () => Promise<T>) => Promise<T>;

/** What the registered steps and after-commit hooks of MarketStateWriter see of an applied update. */
export interface AppliedStateUpdate {
  state: ExchangeState;
  /** The update's exchange time, ISO. */
  stateTime: string;
  result: StateUpdateResult;
}

/**
 * Applies exchange state updates, one or a group in one transaction: wallets with their cohorts, open and
 * closed positions, cohort snapshots and summaries, market snapshots, equity and holder history, and the
 * state-status record. Updates apply in height order; an old or repeated one changes nothing.
 * Every update is derived in set-based SQL over the staged state: its cost is a few statements whatever
 * the number of wallets, which is what lets one update cover an exchange's hundreds of thousands.
 *
 * Work of other features that must commit with an update (the alerts' `state_updated` outbox rows)
 * registers itself in `steps`; they run, as the after-commit hooks, only for an update that was applied.
 */
@Injectable()
export class MarketStateWriter {
  readonly steps = new WriterSteps<AppliedStateUpdate>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly staging: StateStagingRepository,
    private readonly wallets: WalletStateRepository,
    private readonly positions: PositionsStateRepository,
    private readonly snapshots: StateSnapshotsRepository,
    private readonly updates: StateUpdatesRepository,
    private readonly readVersions: ReadVersionsRepository,
  ) {}

  async apply(state: ExchangeState, options: ApplyStateOptions = {}): Promise<StateUpdateResult> {
    return (await this.applyGroup([state], options))[0]!;
  }

  /**
   * Several updates, in height order, in one transaction: each is applied as `apply` would, and `options`
   * apply to the group (a later update follows its last, or not): a catch-up applies its updates so, one
   * commit for several. An update at or below the newest applied height is skipped (its result says not applied).
   */
  async applyGroup(
    states: readonly ExchangeState[],
    { processedAt = new Date(), laterUpdateFollows = false }: ApplyStateOptions = {},
  ): Promise<StateUpdateResult[]> {
    const updates = states.map((state) => ({ state, staged: validate(state), stateTime: isoTime(state.timeMs) }));
    for (let i = 1; i < states.length; i++) {
      if (states[i]!.height <= states[i - 1]!.height)
        throw new InvalidStateError(`state updates of a group must rise in height: ${states[i - 1]!.height} then ${states[i]!.height}`);
    }
    const results = updates.map(({ state, staged }): StateUpdateResult => ({
      applied: false,
      wallets: state.wallets.length,
      newWallets: 0,
      positions: staged.length,
      openedPositions: 0,
      closedPositions: 0,
      cohortSnapshotRows: 0,
      holderChanges: 0,
      timings: {},
    }));
    if (updates.length === 0) return results;
    // The group's step timings are reported with its last update.
    const timings = results[results.length - 1]!.timings;
    let mark = performance.now();
    const timed: Timed = async (step, work) => {
      const value = await work();
      const now = performance.now();
      timings[step] = (timings[step] ?? 0) + Math.round(now - mark);
      mark = now;
      return value;
    };
    const newest = updates[updates.length - 1]!;
    await this.updates.noteSeen(this.dataSource, newest.state.height, newest.stateTime);
    const applied = await this.dataSource.transaction(async (q): Promise<AppliedStateUpdate[]> => {
      const latest = await this.updates.lockLatest(q);
      const fresh = updates.map((u, i) => ({ ...u, result: results[i]! })).filter((u) => latest === null || u.state.height > latest);
      if (fresh.length === 0) return [];
      for (const [i, u] of fresh.entries()) {
        // The staging tables empty at commit: within one transaction the next update empties them itself.
        if (i > 0) await this.staging.clear(q);
        await this.deriveInSql(q, u.state, u.staged, u.stateTime, u.result, timed);
      }
      const last = fresh[fresh.length - 1]!;
      if (!laterUpdateFollows) {
        await timed('wallet rankings', () => this.wallets.writeRankings(q, last.stateTime));
        await timed('pnl periods', () => this.snapshots.pnlPeriods(q, last.stateTime));
      }
      await this.updates.record(
        q,
        fresh.map((u) => ({
          height: u.state.height,
          stateTime: u.stateTime,
          hypePx: u.state.hypePx,
          wallets: u.state.wallets.length,
          positions: u.staged.length,
          processedAt,
        })),
      );
      const done: AppliedStateUpdate[] = [];
      for (const u of fresh) {
        u.result.applied = true;
        const update: AppliedStateUpdate = { state: u.state, stateTime: u.stateTime, result: u.result };
        await this.steps.runSteps(q, update);
        done.push(update);
      }
      await this.readVersions.bump(q, 'state');
      return done;
    });
    for (const update of applied) await this.steps.runAfterCommit(update);
    return results;
  }

  /** The update in set-based SQL over the staged state: every statement reads the tables as the one before left them. */
  private async deriveInSql(
    q: SqlRunner,
    state: ExchangeState,
    stagedPositions: ReadonlyArray<{ address: string; position: PositionStateRecord }>,
    stateTime: string,
    result: StateUpdateResult,
    timed: Timed,
  ): Promise<void> {
    await timed('stage', async () => {
      await this.staging.create(q);
      await this.staging.loadWallets(q, state.wallets);
      await this.staging.loadPositions(q, stagedPositions);
      await this.wallets.stageValues(q, state.hypePx);
    });
    result.holderChanges = await timed('holders', () => this.snapshots.holderChanges(q, stateTime));
    await timed('pnl', () => this.snapshots.pnlChanges(q, stateTime));
    result.newWallets = (await timed('wallets', () => this.wallets.upsert(q, stateTime))).created;
    result.closedPositions = await timed('close', () => this.positions.closeGone(q, stateTime));
    await timed('update', () => this.positions.updateOpen(q, stateTime));
    result.openedPositions = await timed('open', () => this.positions.openNew(q, stateTime));
    if (largeChange(result, stagedPositions.length)) await timed('analyze', () => this.positions.analyze(q));
    result.cohortSnapshotRows = await timed('snapshots', async () => {
      const cohortRows = await this.snapshots.openPositions(q, stateTime, stagedPositions.length);
      await this.snapshots.walletsEquity(q, stateTime);
      return cohortRows;
    });
  }
}

/**
 * After a large change the planner's row estimates are stale (autovacuum comes later), and the statements
 * reading the tables next would plan for a nearly empty table. A quarter of the rows new: the estimates
 * are off enough to matter; less is left to autovacuum.
 */
function largeChange(result: StateUpdateResult, positions: number): boolean {
  return result.openedPositions + result.newWallets > Math.max(10_000, positions / 4);
}

/** Refuses a state that would write nonsense; a position of size 0 is no position and is dropped. */
function validate(state: ExchangeState): Array<{ address: string; position: PositionStateRecord }> {
  if (!Number.isSafeInteger(state.height) || state.height < 0)
    throw new InvalidStateError(`state height must be a non-negative integer, got ${state.height}`);
  if (!Number.isSafeInteger(state.timeMs) || state.timeMs < 0)
    throw new InvalidStateError(`state time must be epoch ms, got ${state.timeMs}`);
  const seen = new Set<string>();
  const positions: Array<{ address: string; position: PositionStateRecord }> = [];
  for (const wallet of state.wallets) {
    const address = wallet.address.toLowerCase();
    if (seen.has(address)) throw new InvalidStateError(`wallet ${address} appears twice in the state at height ${state.height}`);
    seen.add(address);
    const coins = new Set<string>();
    for (const position of wallet.positions) {
      if (coins.has(position.coin))
        throw new InvalidStateError(`wallet ${address} has two ${position.coin} positions at height ${state.height}`);
      coins.add(position.coin);
      if (!/^0*(\.0*)?$/.test(position.szi.replace('-', ''))) positions.push({ address, position });
    }
  }
  return positions;
}
