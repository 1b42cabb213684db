import { epochMs, PgNumeric, sqlArray, type SqlArrayElement, type SqlRunner } from '#database';
import { DEX_SQL } from '../positions-state.repository.js';
import { positionRow, StateModel, type OpenPositionModel, type PositionRow, type UpdateHistory, type WalletModel, type WalletRow } from './state-model.js';
import type { AgeCutoffs, SnapshotRows } from './state-snapshot-rows.js';

type Column<T> = [column: string, type: string, value: (row: T) => SqlArrayElement];

const names = <T>(columns: ReadonlyArray<Column<T>>): string => columns.map(([c]) => c).join(', ');

const WALLET_COLUMNS: Array<Column<WalletRow>> = [
  ['perp_equity', 'numeric', (w) => w.perpEquity],
  ['spot_equity', 'numeric', (w) => w.spotEquity],
  ['staked_equity', 'numeric', (w) => w.stakedEquity],
  ['total_equity', 'numeric', (w) => w.totalEquity],
  ['perp_pnl', 'numeric', (w) => w.perpPnl],
  ['size_segment_id', 'smallint', (w) => w.sizeSegmentId],
  ['pnl_segment_id', 'smallint', (w) => w.pnlSegmentId],
  ['open_value', 'numeric', (w) => w.openValue],
  ['long_value', 'numeric', (w) => w.longValue],
  ['short_value', 'numeric', (w) => w.shortValue],
  ['sum_upnl', 'numeric', (w) => w.sumUpnl],
  ['exposure_ratio', 'numeric', (w) => w.exposureRatio],
  ['perp_bias', 'numeric', (w) => w.perpBias],
  ['closest_liq_coin', 'text', (w) => w.closestLiqCoin],
  ['closest_liq_progress', 'numeric', (w) => w.closestLiqProgress],
  ['count_open_positions', 'integer', (w) => w.countOpenPositions],
  ['spot_hype', 'numeric', (w) => w.spotHype],
  ['staked_hype', 'numeric', (w) => w.stakedHype],
];

const POSITION_COLUMNS: Array<Column<PositionRow>> = [
  ['size', 'numeric', (p) => p.size],
  ['entry_price', 'numeric', (p) => p.entryPrice],
  ['value', 'numeric', (p) => p.value],
  ['unrealized_pnl', 'numeric', (p) => p.unrealizedPnl],
  ['funding', 'numeric', (p) => p.funding],
  ['liquidation_price', 'numeric', (p) => p.liquidationPrice],
  ['liquidation_progress', 'numeric', (p) => p.liquidationProgress],
  ['leverage_type', 'text', (p) => p.leverageType],
  ['leverage', 'numeric', (p) => p.leverage],
  ['margin_used', 'numeric', (p) => p.marginUsed],
];

/**
 * Rows as `unnest($n::type[], ...) AS alias(columns)`, one array parameter per column, numbered on from
 * `params` (to which they are added); `ordinality` adds the row's number as column `i`.
 */
function unnestOf<T>(rows: readonly T[], columns: ReadonlyArray<Column<T>>, alias: string, params: SqlArrayElement[], ordinality = false): string {
  const first = params.length + 1;
  for (const [, , value] of columns) params.push(sqlArray(rows.map(value)));
  const arrays = columns.map(([, type], i) => `$${first + i}::${type}[]`).join(', ');
  return ordinality
    ? `unnest(${arrays}) WITH ORDINALITY AS ${alias}(${names(columns)}, i)`
    : `unnest(${arrays}) AS ${alias}(${names(columns)})`;
}

/** The columns of each snapshot table after `created_at`, with their types, in the order of its SnapshotRows tuple. */
const COHORT_COLUMNS: ReadonlyArray<[column: string, type: string]> = [
  ['timeframe', 'text'], ['coin', 'text'], ['segment_id', 'smallint'], ['position_count', 'integer'], ['position_count_long', 'integer'],
  ['total_position_value', 'numeric'], ['total_position_value_long', 'numeric'], ['total_funding', 'numeric'], ['total_unrealized_pnl', 'numeric'],
  ['total_position_size', 'numeric'], ['total_position_size_long', 'numeric'], ['value_near_liquidation', 'numeric'],
];
const SUMMARY_COLUMNS: ReadonlyArray<[column: string, type: string]> = [
  ['segment_id', 'smallint'], ['position_age', 'text'], ['traders', 'integer'], ['traders_in_profit', 'integer'], ['positions', 'integer'],
  ['long_positions', 'integer'], ['short_positions', 'integer'], ['value', 'numeric'], ['long_value', 'numeric'], ['short_value', 'numeric'],
  ['active_perp_equity', 'numeric'],
];
const SIZE_COLUMNS: ReadonlyArray<[column: string, type: string]> = [
  ['coin', 'text'], ['size_segment_id', 'smallint'], ['position_count', 'integer'], ['total_position_value', 'numeric'],
  ['total_position_value_long', 'numeric'], ['value_near_liquidation', 'numeric'],
];
const MARKET_COLUMNS: ReadonlyArray<[column: string, type: string]> = [
  ['count', 'integer'], ['count_long', 'integer'], ['count_short', 'integer'], ['open_interest', 'numeric'], ['open_interest_long', 'numeric'],
  ['open_interest_short', 'numeric'], ['perp_equity', 'numeric'], ['count_in_profit', 'integer'],
];
const EQUITY_COLUMNS: ReadonlyArray<[column: string, type: string]> = [
  ['total_wallets_equity', 'numeric'], ['perp_wallets_equity', 'numeric'], ['spot_wallets_equity', 'numeric'], ['staking_wallets_equity', 'numeric'],
];

/** One applied update of a group, as the group's statements write it. */
export interface GroupUpdate {
  stateTime: string;
  history: UpdateHistory;
  snapshots: SnapshotRows;
}

/**
 * The SQL of the state updates derived in memory (InMemoryStateDerivation): the model read from the tables,
 * the opened positions' open times, and a group of updates written in four statements.
 */
export class StateModelRepository {
  /** The wallets and open positions as the update at `height` left them. */
  async load(q: SqlRunner, height: number | null): Promise<StateModel> {
    const wallets: Array<Record<string, string>> = await q.query(
      `SELECT address, perp_equity::text, perp_pnl::text, spot_hype::text, staked_hype::text, spot_equity::text, staked_equity::text, total_equity::text,
              size_segment_id::text, pnl_segment_id::text
       FROM wallets`,
    );
    const positions: Array<Record<string, string | null>> = await q.query(
      `SELECT address, coin, side, size::text, value::text, funding::text, unrealized_pnl::text, liquidation_progress::text, ${epochMs('open_time')}::text AS open_ms
       FROM positions WHERE close_time IS NULL`,
    );
    const n = (text: string | null | undefined) => PgNumeric.parse(text!);
    const walletModels = new Map<string, WalletModel>();
    for (const w of wallets) {
      walletModels.set(w['address']!, {
        address: w['address']!,
        perpEquity: n(w['perp_equity']),
        perpPnl: n(w['perp_pnl']),
        spotHype: n(w['spot_hype']),
        stakedHype: n(w['staked_hype']),
        spotEquity: n(w['spot_equity']),
        stakedEquity: n(w['staked_equity']),
        totalEquity: n(w['total_equity']),
        sizeSegmentId: Number(w['size_segment_id']),
        pnlSegmentId: Number(w['pnl_segment_id']),
        staged: null,
        stateTime: null,
        createdTime: null,
      });
    }
    const positionModels = new Map<string, OpenPositionModel[]>();
    for (const p of positions) {
      const list = positionModels.get(p['address']!) ?? [];
      positionModels.set(p['address']!, list);
      list.push({
        address: p['address']!,
        coin: p['coin']!,
        long: p['side'] === 'long',
        size: n(p['size']),
        value: n(p['value']),
        funding: n(p['funding']),
        unrealizedPnl: n(p['unrealized_pnl']),
        liquidationProgress: p['liquidation_progress'] === null ? null : n(p['liquidation_progress']),
        openTimeMs: Number(p['open_ms']),
        source: null,
        updatedTime: null,
        createdTime: null,
      });
    }
    return new StateModel(height, walletModels, positionModels);
  }

  /** Each coin's rank in the database's sort order of text (the closest liquidation's tie-break). */
  async coinOrder(q: SqlRunner, coins: readonly string[]): Promise<Map<string, number>> {
    const [{ sorted }]: Array<{ sorted: string[] | null }> = await q.query(`SELECT array_agg(c ORDER BY c) AS sorted FROM unnest($1::text[]) AS c`, [sqlArray(coins)]);
    return new Map((sorted ?? []).map((coin, i) => [coin, i]));
  }

  /**
   * The state time less 24 hours, 7 and 30 days, in the session's time zone as the SQL writer's intervals
   * are; and the open times of the positions the update opened: that of the newest stored fill up to the
   * state time that took the position from zero or from the other side, else the state time.
   */
  async cutoffsAndOpenTimes(q: SqlRunner, stateTime: string, opened: readonly OpenPositionModel[]): Promise<AgeCutoffs> {
    const params: SqlArrayElement[] = [stateTime];
    const positions = unnestOf(opened, [['address', 'text', (p) => p.address], ['coin', 'text', (p) => p.coin], ['long', 'boolean', (p) => p.long]], 'o', params, true);
    const [row]: Array<{ day: string; week: string; month: string; opens: string[] }> = await q.query(
      `SELECT ${epochMs(`$1::timestamptz - interval '24 hours'`)}::text AS day, ${epochMs(`$1::timestamptz - interval '7 days'`)}::text AS week,
              ${epochMs(`$1::timestamptz - interval '30 days'`)}::text AS month,
              ARRAY(SELECT ${epochMs(
                `coalesce((SELECT f.time FROM fills f
                           WHERE f.address = o.address AND f.coin = o.coin AND f.time <= $1::timestamptz
                             AND (f.start_position = 0 OR (f.start_position > 0) <> o.long)
                           ORDER BY f.time DESC LIMIT 1), $1::timestamptz)`,
              )}::text FROM ${positions} ORDER BY o.i) AS opens`,
      params,
    );
    row!.opens.forEach((ms, i) => (opened[i]!.openTimeMs = Number(ms)));
    return [Number(row!.day), Number(row!.week), Number(row!.month)];
  }

  /** The history rows of the group's updates: HYPE balance and PnL change points, and every snapshot. */
  async writeHistory(q: SqlRunner, updates: readonly GroupUpdate[]): Promise<void> {
    type Item<R> = { t: string; row: R };
    const at = <R>(rows: (u: GroupUpdate) => readonly R[]): Array<Item<R>> => updates.flatMap((u) => rows(u).map((row) => ({ t: u.stateTime, row })));
    const params: SqlArrayElement[] = [];
    // A snapshot table's tuples, each with its update's time as created_at.
    const tuples = (rows: ReadonlyArray<Item<readonly SqlArrayElement[]>>, columns: ReadonlyArray<[string, string]>, alias: string) =>
      unnestOf(rows, [['created_at', 'timestamptz', (x) => x.t], ...columns.map(([c, t], i): Column<Item<readonly SqlArrayElement[]>> => [c, t, (x) => x.row[i]!])], alias, params);
    const holders = unnestOf(at((u) => u.history.holderRows), [
      ['created_at', 'timestamptz', (x) => x.t], ['address', 'text', (x) => x.row.address], ['spot_amount', 'numeric', (x) => x.row.spotAmount], ['staked_amount', 'numeric', (x) => x.row.stakedAmount],
    ], 'h', params);
    const pnl = unnestOf(at((u) => u.history.pnlRows), [['created_at', 'timestamptz', (x) => x.t], ['address', 'text', (x) => x.row.address], ['perp_pnl', 'numeric', (x) => x.row.perpPnl]], 'p', params);
    const cohorts = tuples(at((u) => u.snapshots.cohorts), COHORT_COLUMNS, 'c');
    const summaries = tuples(at((u) => u.snapshots.summaries), SUMMARY_COLUMNS, 's');
    const sizes = tuples(at((u) => u.snapshots.sizes), SIZE_COLUMNS, 'z');
    const market = tuples(at((u) => [u.snapshots.market]), MARKET_COLUMNS, 'm');
    const equity = tuples(at((u) => [u.snapshots.equity]), EQUITY_COLUMNS, 'e');
    const insert = (table: string, from: string, alias: string) => `INSERT INTO ${table} (${from.slice(from.lastIndexOf('(') + 1, -1)}) SELECT ${alias}.* FROM ${from}`;
    await q.query(
      `WITH holders AS (${insert('holder_history', holders, 'h')}),
            pnl AS (${insert('wallet_pnl_history', pnl, 'p')}),
            cohorts AS (${insert('cohort_position_snapshots', cohorts, 'c')}),
            summaries AS (${insert('cohort_summary_snapshots', summaries, 's')}),
            sizes AS (${insert('position_size_snapshots', sizes, 'z')}),
            market AS (${insert('market_snapshots', market, 'm')})
       INSERT INTO wallets_equity_history (created_at, ${EQUITY_COLUMNS.map(([c]) => c).join(', ')}, vault_wallets_equity) SELECT e.*, NULL FROM ${equity}`,
      params,
    );
  }

  /**
   * The wallets and positions as the group's last update left them: new wallets (earliest activity: their
   * first stored fill, or the update that first saw them) and the others' figures; stored positions closed
   * or updated, then the positions the group opened, in the order it opened them (their serial ids follow
   * it; the SQL writer's follow its plan's), closed already where they closed in the group.
   */
  async writeCurrent(q: SqlRunner, model: StateModel, coinOrder: ReadonlyMap<string, number>): Promise<void> {
    const { wallets, open, closed, opened } = model.pendingWrites(coinOrder);
    const params: SqlArrayElement[] = [];
    type Pending = (typeof wallets)[number];
    const walletColumns: Array<Column<Pending>> = [
      ['address', 'text', (w) => w.wallet.address],
      ['state_time', 'timestamptz', (w) => w.wallet.stateTime],
      ['created_time', 'timestamptz', (w) => w.wallet.createdTime],
      ...WALLET_COLUMNS.map(([c, t, value]): Column<Pending> => [c, t, (w) => value(w.row)]),
    ];
    const created = unnestOf(wallets.filter((w) => w.wallet.createdTime !== null), walletColumns, 'v', params);
    const updated = unnestOf(wallets.filter((w) => w.wallet.createdTime === null), walletColumns, 'u', params);
    await q.query(
      `WITH created AS (
         INSERT INTO wallets (address, earliest_activity_at, state_time, ${names(WALLET_COLUMNS)})
         SELECT v.address, least(v.created_time, (SELECT min(f.time) FROM fills f WHERE f.address = v.address)), v.state_time, ${names(WALLET_COLUMNS)}
         FROM ${created}
       )
       UPDATE wallets w SET state_time = u.state_time, ${WALLET_COLUMNS.map(([c]) => `${c} = u.${c}`).join(', ')}
       FROM ${updated} WHERE w.address = u.address`,
      params,
    );

    // Closed and updated first: a flipped position's new row takes the key its old one held.
    const rowOf = (p: OpenPositionModel): PositionRow | null => (p.source === null ? null : positionRow(p));
    const stored = [
      ...closed.map((c) => ({ position: c.position, row: rowOf(c.position), closeTime: c.closeTime as string | null, updatedTime: c.closeTime })),
      ...open.map((p) => ({ position: p, row: rowOf(p), closeTime: null as string | null, updatedTime: p.updatedTime! })),
    ];
    type Stored = (typeof stored)[number];
    const positionParams: SqlArrayElement[] = [];
    const changes = unnestOf(
      stored,
      [
        ['address', 'text', (s) => s.position.address],
        ['coin', 'text', (s) => s.position.coin],
        ['close_time', 'timestamptz', (s) => s.closeTime],
        ['updated_at', 'timestamptz', (s) => s.updatedTime],
        ['changed', 'boolean', (s) => s.row !== null],
        ...POSITION_COLUMNS.map(([c, t, value]): Column<Stored> => [c, t, (s) => (s.row === null ? null : value(s.row))]),
      ],
      'c',
      positionParams,
    );
    await q.query(
      `UPDATE positions p SET close_time = c.close_time, updated_at = c.updated_at,
              ${POSITION_COLUMNS.map(([col]) => `${col} = CASE WHEN c.changed THEN c.${col} ELSE p.${col} END`).join(', ')}
       FROM ${changes} WHERE p.close_time IS NULL AND p.address = c.address AND p.coin = c.coin`,
      positionParams,
    );
    if (opened.length === 0) return;
    const closeTimes = model.closeTimes();
    const insertParams: SqlArrayElement[] = [];
    const rows = opened.map((p) => ({ p, row: positionRow(p) }));
    const inserted = unnestOf(
      rows,
      [
        ['address', 'text', ({ p }) => p.address],
        ['coin', 'text', ({ p }) => p.coin],
        ['long', 'boolean', ({ p }) => p.long],
        ...POSITION_COLUMNS.map(([c, t, value]): Column<(typeof rows)[number]> => [c, t, ({ row }) => value(row)]),
        ['open_time', 'timestamptz', ({ p }) => new Date(p.openTimeMs).toISOString()],
        ['close_time', 'timestamptz', ({ p }) => closeTimes.get(p) ?? null],
        ['created_at', 'timestamptz', ({ p }) => p.createdTime],
        ['updated_at', 'timestamptz', ({ p }) => closeTimes.get(p) ?? p.updatedTime],
      ],
      'o',
      insertParams,
    );
    await q.query(
      `INSERT INTO positions (address, coin, dex, side, ${names(POSITION_COLUMNS)}, open_time, close_time, created_at, updated_at)
       SELECT o.address, o.coin, ${DEX_SQL('o.coin')}, CASE WHEN o.long THEN 'long' ELSE 'short' END, ${names(POSITION_COLUMNS)}, o.open_time, o.close_time, o.created_at, o.updated_at
       FROM ${inserted}`,
      insertParams,
    );
  }
}
