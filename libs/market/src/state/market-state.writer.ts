import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoTime, ReadVersionsRepository, WriterSteps } from '#database';
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

/** What the registered steps and after-commit hooks of MarketStateWriter see of an applied update. */
export interface AppliedStateUpdate {
  state: ExchangeState;
  /** The update's exchange time, ISO. */
  stateTime: string;
  result: StateUpdateResult;
}

/**
 * Applies one exchange state update in one transaction: wallets with their cohorts, open and closed
 * positions, cohort snapshots and summaries, market snapshots, equity and holder history, and the
 * state-status record.
 * The work is set-based SQL over the staged update, so its cost is a few statements whatever the
 * number of wallets. Updates apply in height order; an old or repeated one changes nothing.
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

  async apply(state: ExchangeState, { processedAt = new Date(), laterUpdateFollows = false }: ApplyStateOptions = {}): Promise<StateUpdateResult> {
    const stagedPositions = validate(state);
    const stateTime = isoTime(state.timeMs);
    const result: StateUpdateResult = {
      applied: false,
      wallets: state.wallets.length,
      newWallets: 0,
      positions: stagedPositions.length,
      openedPositions: 0,
      closedPositions: 0,
      cohortSnapshotRows: 0,
      holderChanges: 0,
      timings: {},
    };
    let mark = performance.now();
    const timed = async <T>(step: string, work: () => Promise<T>): Promise<T> => {
      const value = await work();
      const now = performance.now();
      result.timings[step] = Math.round(now - mark);
      mark = now;
      return value;
    };
    await this.updates.noteSeen(this.dataSource, state.height, stateTime);
    const applied = await this.dataSource.transaction(async (q): Promise<AppliedStateUpdate | null> => {
      const latest = await this.updates.lockLatest(q);
      if (latest !== null && latest >= state.height) return null;
      await timed('stage', async () => {
        await this.staging.create(q);
        await this.staging.loadWallets(q, state.wallets);
        await this.staging.loadPositions(q, stagedPositions);
        await this.wallets.stageValues(q, state.hypePx);
      });
      result.holderChanges = await timed('holders', () => this.snapshots.holderChanges(q, stateTime));
      await timed('pnl', () => this.snapshots.pnlChanges(q, stateTime));
      result.newWallets = (await timed('wallets', () => this.wallets.upsert(q, stateTime))).created;
      if (!laterUpdateFollows) {
        await timed('wallet rankings', () => this.wallets.writeRankings(q, stateTime));
        await timed('pnl periods', () => this.snapshots.pnlPeriods(q, stateTime));
      }
      result.closedPositions = await timed('close', () => this.positions.closeGone(q, stateTime));
      await timed('update', () => this.positions.updateOpen(q, stateTime));
      result.openedPositions = await timed('open', () => this.positions.openNew(q, stateTime));
      // After a large change the planner's row estimates are stale (autovacuum comes later), and the
      // snapshot queries below would plan for a nearly empty table.
      // (A quarter of the rows new: the estimates are off enough to matter; less is left to autovacuum.)
      if (result.openedPositions + result.newWallets > Math.max(10_000, stagedPositions.length / 4)) await timed('analyze', () => this.positions.analyze(q));
      result.cohortSnapshotRows = await timed('snapshots', async () => {
        const cohortRows = await this.snapshots.openPositions(q, stateTime, stagedPositions.length);
        await this.snapshots.walletsEquity(q, stateTime);
        return cohortRows;
      });
      await this.updates.record(q, {
        height: state.height,
        stateTime,
        hypePx: state.hypePx,
        wallets: state.wallets.length,
        positions: stagedPositions.length,
        processedAt,
      });
      result.applied = true;
      const update: AppliedStateUpdate = { state, stateTime, result };
      await this.steps.runSteps(q, update);
      await this.readVersions.bump(q, 'state');
      return update;
    });
    if (applied) await this.steps.runAfterCommit(applied);
    return result;
  }
}

/** Refuses a state that would write nonsense; a position of size 0 is no position and is dropped. */
function validate(state: ExchangeState): Array<{ address: string; position: PositionStateRecord }> {
  if (!Number.isSafeInteger(state.height) || state.height < 0) throw new InvalidStateError(`state height must be a non-negative integer, got ${state.height}`);
  if (!Number.isSafeInteger(state.timeMs) || state.timeMs < 0) throw new InvalidStateError(`state time must be epoch ms, got ${state.timeMs}`);
  const seen = new Set<string>();
  const positions: Array<{ address: string; position: PositionStateRecord }> = [];
  for (const wallet of state.wallets) {
    const address = wallet.address.toLowerCase();
    if (seen.has(address)) throw new InvalidStateError(`wallet ${address} appears twice in the state at height ${state.height}`);
    seen.add(address);
    const coins = new Set<string>();
    for (const position of wallet.positions) {
      if (coins.has(position.coin)) throw new InvalidStateError(`wallet ${address} has two ${position.coin} positions at height ${state.height}`);
      coins.add(position.coin);
      if (!/^0*(\.0*)?$/.test(position.szi.replace('-', ''))) positions.push({ address, position });
    }
  }
  return positions;
}
