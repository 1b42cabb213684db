import { createHash } from 'node:crypto';

/** Runs a statement and gives its rows: a DataSource's `query`, or a pg client's wrapped. */
export type RowsQuery = (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** Columns that hold a serial id or the wall-clock time of writing, in every table: not the data's. */
const WALL_CLOCK_COLUMNS = ['id', 'processed_at', 'updated_at'];
/**
 * A delivery row's times of writing: `created_at`, the first attempt's due time (`next_attempt_at`, the
 * write's) and `expires_at` (an hour after the write). Its exchange time is `occurred_at`, compared.
 */
const WALL_CLOCK_BY_TABLE: Record<string, string[]> = { webhook_deliveries: ['created_at', 'next_attempt_at', 'expires_at'] };
/**
 * Partitions are compared through their parent. Not data: the migrations table; the read versions (values
 * of a sequence that never repeats a value, one per writing transaction, so a retried one counts twice);
 * the signing secret (random, made by the first process of a deployment).
 */
const SKIPPED_TABLES = new Set([
  'migrations',
  'read_versions',
  'signing_secret',
  'fills_2026_11',
  'fills_default',
  'open_order_intervals_closed',
  'open_order_intervals_current',
]);
/**
 * Where batches end differs between runs (a catch-up's at boundaries and hours, a live-like run's at its
 * steps, a restarted one's where it was stopped), and two things of the open-order book depend on it;
 * neither reaches a snapshot or a route. A removed order stays a `gone` row until the next snapshot deletes
 * it, holding whatever its last change left (and an order placed and removed within one batch leaves none):
 * only the book's live rows are compared. The remaining size is computed in TypeScript (`244.5`) when an
 * order's status and its fill are folded in one batch, and in SQL (`244.50`: numeric keeps the scale) when
 * they are not: it is compared by value, in the book and in its intervals.
 */
const COMPARED_ROWS: Record<string, string> = { open_orders: 'NOT t.gone' };
const BY_VALUE: Record<string, string[]> = { open_orders: ['sz'], open_order_intervals: ['sz'] };
/**
 * A feed checkpoint is a place in the files of one directory: its path names the directory, and its offset
 * and line count lines a crash made the simulator write twice (skipped by the block guard). What it says of
 * the data is the last block stored and the hourly file it is in.
 */
const REPLACED: Record<string, string> = {
  feed_checkpoints: `jsonb_build_object('position', jsonb_build_object('lastBlock', t.position->'lastBlock',
    'file', substring(t.position->>'file' from '[^/]+/hourly/[^/]+/[^/]+$')))`,
};

/** Every table's rows as JSON text, sorted, without the columns and rows above: equal dumps, equal data. */
export async function dumpEveryTable(query: RowsQuery): Promise<Record<string, string[]>> {
  const tables = (await query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
  )) as Array<{ name: string }>;
  const dump: Record<string, string[]> = {};
  for (const { name } of tables) {
    if (SKIPPED_TABLES.has(name)) continue;
    const trimmed =
      (BY_VALUE[name] ?? []).map((column) => ` || jsonb_build_object('${column}', trim_scale(t."${column}"))`).join('') +
      (REPLACED[name] ? ` || ${REPLACED[name]}` : '');
    const rows = (await query(
      `SELECT (to_jsonb(t) - $1::text[]${trimmed})::text AS row FROM "${name}" t WHERE ${COMPARED_ROWS[name] ?? 'true'} ORDER BY 1`,
      [[...WALL_CLOCK_COLUMNS, ...(WALL_CLOCK_BY_TABLE[name] ?? [])]],
    )) as Array<{ row: string }>;
    dump[name] = rows.map((r) => r.row);
  }
  return dump;
}

/** Each table's row count and the SHA-256 of its ordered rows (dumpEveryTable): a short form to compare. */
export async function digestEveryTable(query: RowsQuery): Promise<Record<string, string>> {
  const dump = await dumpEveryTable(query);
  return Object.fromEntries(
    Object.entries(dump).map(([table, rows]) => [
      table,
      `${rows.length} rows ${createHash('sha256').update(rows.join('\n')).digest('hex').slice(0, 16)}`,
    ]),
  );
}

/**
 * An account whose rules match exchange-wide (ledger updates, liquidations, TWAP lifecycle) and every state
 * update, all created at `createdAt` (a rule sees occurrences at or after it), so two databases seeded alike
 * get the same deliveries from the same blocks.
 */
export async function seedExchangeWideRules(query: RowsQuery, createdAt: Date): Promise<void> {
  await query(`INSERT INTO consumers (id, name, plan, created_at) VALUES (1, 'every event', 'tier4', $1)`, [createdAt]);
  await query(
    `INSERT INTO webhook_endpoints (id, consumer_id, url, created_at, updated_at) VALUES (1, 1, 'https://example.com/hook', $1, $1)`,
    [createdAt],
  );
  await query(
    `INSERT INTO alert_rules (id, consumer_id, webhook_endpoint_id, event_type, created_at, updated_at)
     SELECT i, 1, 1, type, $1, $1 FROM unnest($2::text[]) WITH ORDINALITY AS r(type, i)`,
    [createdAt, ['ledger_update', 'liquidation', 'twap_lifecycle', 'state_updated']],
  );
  await query(
    `INSERT INTO alert_rules_version (id, version) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET version = alert_rules_version.version + 1`,
  );
}
