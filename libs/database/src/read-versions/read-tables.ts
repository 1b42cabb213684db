import type { ReadDomain } from './read-versions.repository.js';

/**
 * The one domain of every table the analytics routes can read: the domain whose writer writes the table
 * and bumps that domain in the same transaction. A table written by two domains' writers could change
 * without the version a route is cached under moving, so each table has exactly one. The api derives
 * a cached route's domains from the tables its queries classes declare (`@ReadsTables`), and
 * test/e2e/read-cache-domains.e2e-spec.ts checks every cached route's statements against them and that
 * every table of the schema is either here or named there as none of the routes' data.
 */
export const READ_TABLES = {
  // The facts writer's batch: fills (monthly partitions), funding, TWAP statuses, ledger, prices, the
  // feed checkpoints, and the open-order book with its snapshots (OpenOrdersStep, same transaction).
  fills: 'facts',
  funding_payments: 'facts',
  twap_statuses: 'facts',
  ledger_updates: 'facts',
  market_prices: 'facts',
  feed_checkpoints: 'facts',
  open_orders: 'facts',
  open_order_intervals: 'facts',
  open_order_snapshots: 'facts',
  open_order_feeds: 'facts',
  open_order_backlog: 'facts',
  // The fill projector's run.
  closed_trades: 'projections',
  closed_trade_open_states: 'projections',
  projection_checkpoints: 'projections',
  builder_activity_hourly: 'projections',
  builder_totals: 'projections',
  exchange_volume_hourly: 'projections',
  // The state writer's update.
  state_updates: 'state',
  state_status: 'state',
  wallets: 'state',
  positions: 'state',
  cohort_position_snapshots: 'state',
  cohort_summary_snapshots: 'state',
  market_snapshots: 'state',
  position_size_snapshots: 'state',
  wallets_equity_history: 'state',
  holder_history: 'state',
  wallet_pnl_history: 'state',
  wallet_pnl_periods: 'state',
  wallet_rankings: 'state',
  wallet_rankings_status: 'state',
  // A favourite added or removed (FavoritesWriter).
  consumer_favorites: 'favorites',
  wallet_favorite_counts: 'favorites',
} as const satisfies Record<string, ReadDomain>;

export type ReadTable = keyof typeof READ_TABLES;

/** Domains in one fixed order, so a route's cache key names them the same way whatever declared them. */
const DOMAIN_ORDER: readonly ReadDomain[] = ['facts', 'projections', 'state', 'favorites'];

const TABLES = 'tidewatch:reads-tables';

/**
 * Declares the tables a queries class's statements read (joins and subqueries included). Its constructor
 * takes nothing, so what it reads is all here; a service reads what the providers it is built with read.
 */
export function ReadsTables(...tables: ReadTable[]): ClassDecorator {
  return (target) => Reflect.defineMetadata(TABLES, tables, target);
}

/**
 * The tables `type` reads: those it declares and, through its constructor parameters (the providers
 * Nest injects, as TypeScript's `design:paramtypes` names them), those of everything it is built with.
 */
export function tablesReadBy(type: abstract new (...args: never[]) => unknown): ReadonlySet<ReadTable> {
  const tables = new Set<ReadTable>();
  const seen = new Set<unknown>();
  const visit = (t: unknown): void => {
    if (typeof t !== 'function' || seen.has(t)) return;
    seen.add(t);
    for (const table of (Reflect.getMetadata(TABLES, t) as ReadTable[] | undefined) ?? []) tables.add(table);
    for (const dependency of (Reflect.getMetadata('design:paramtypes', t) as unknown[] | undefined) ?? []) visit(dependency);
  };
  visit(type);
  return tables;
}

/** The domains of `tables`, in the fixed order. */
export function domainsOf(tables: Iterable<ReadTable>): ReadDomain[] {
  const domains = new Set([...tables].map((table) => READ_TABLES[table]));
  return DOMAIN_ORDER.filter((domain) => domains.has(domain));
}
