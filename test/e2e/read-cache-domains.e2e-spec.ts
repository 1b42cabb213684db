import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { dataSourceOptions, READ_TABLES, type ReadTable } from '#database';
import { ApiHarness } from '../support/api-harness.js';
import { routeSamples, WALLET, writeAnalyticsData, type AnalyticsData } from '../support/analytics-data.js';
import { apiDocument, cachedRoutes, requestsOf, type CachedRoute } from '../support/cached-routes.js';
import { StatementCapture, tablesOf } from '../support/statement-capture.js';

// A cached route's answers are kept until a version of the domains it is keyed by moves (docs/architecture.md,
// "The read cache"). Those domains are derived from the tables its queries classes declare; this suite runs
// every cached route (found in the app's metadata) on data in every table, captures each statement it runs,
// asks Postgres which tables the statement reads, and fails on any table the route's queries do not declare,
// naming the route, the table and its domain.

/** The tables of the schema that are none of the analytics routes' data: accounts, dashboard sign-ins, alerts, export files, the versions themselves. */
const NOT_READ_BY_ANALYTICS = [
  'migrations',
  'signing_secret',
  'consumers',
  'api_tokens',
  'usage',
  'dashboard_accounts',
  'dashboard_sessions',
  'webhook_endpoints',
  'alert_rules',
  'alert_rules_version',
  'webhook_deliveries',
  'webhook_delivery_attempts',
  'alert_price_markets',
  'read_versions',
  'export_files',
];

describe('the domains of the cached routes', () => {
  const capture = new StatementCapture();
  let api: ApiHarness;
  let token: string;
  let dataSource: DataSource;
  let data: AnalyticsData;
  let routes: CachedRoute[];

  beforeAll(async () => {
    // The cache off: every request runs the route's statements.
    api = await ApiHarness.start({ env: { READ_CACHE_MB: '0' }, beforeInit: (app) => app.useGlobalInterceptors(capture) });
    capture.watch(api.app.get(DataSource));
    routes = cachedRoutes(api.app);
    ({ token } = await api.createConsumer({ name: 'read-cache-domains', rateLimitPerMinute: 100_000, usageLimit: 1_000_000 }));
    dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
    data = await writeAnalyticsData(dataSource);
    const favorite = await api.http.put(`/api/favorites/accounts/${WALLET}`).set('Authorization', `Bearer ${token}`);
    expect(favorite.status).toBe(200);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await api?.close();
  });

  it('finds the cached routes in the metadata of the app: every analytics route it caches', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes.map((r) => r.name)).toContain('WalletsController.list');
  });

  it('puts every table of the schema in one domain, or names it as none of the analytics data, and every such table exists', async () => {
    const tables: Array<{ name: string }> = await dataSource.query(
      `SELECT relname AS name FROM pg_class
       WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p') AND NOT relispartition ORDER BY relname`,
    );
    const registered = new Set([...Object.keys(READ_TABLES), ...NOT_READ_BY_ANALYTICS]);
    expect(tables.map((t) => t.name).filter((name) => !registered.has(name))).toEqual([]);
    const existing = new Set(tables.map((t) => t.name));
    expect([...registered].filter((name) => !existing.has(name))).toEqual([]);
  });

  it('has data in every table a cached route declares, so the routes run their statements on rows', async () => {
    const declared = new Set(routes.flatMap((route) => [...route.tables]));
    const empty: string[] = [];
    for (const table of declared) if ((await dataSource.query(`SELECT 1 FROM ${table} LIMIT 1`)).length === 0) empty.push(table);
    expect(empty).toEqual([]);
  });

  it('runs every cached route, and each statement reads only tables its queries declare', async () => {
    const document = apiDocument(api.app);
    const samples = await routeSamples(dataSource, data);

    const problems: string[] = [];
    for (const route of routes) {
      for (const url of requestsOf(route, document, samples)) {
        const res = await api.get(url, token);
        if (res.status !== 200) {
          problems.push(`${route.name}: GET ${url} answered ${res.status} ${res.text.slice(0, 200)} (no statement checked)`);
          continue;
        }
        problems.push(...(await undeclaredReads(route, url, capture.byUrl.get(url) ?? [])));
      }
    }
    expect(problems).toEqual([]);
  });

  /** What a request's statements read beyond the tables of its route: one line per statement and table. */
  async function undeclaredReads(route: CachedRoute, url: string, statements: Array<{ sql: string; parameters: unknown[] }>) {
    const problems: string[] = [];
    if (statements.length === 0) problems.push(`${route.name}: GET ${url} ran no statement (nothing was captured)`);
    for (const statement of statements) {
      for (const table of await tablesOf(dataSource, statement)) {
        const domain = READ_TABLES[table as ReadTable] as string | undefined;
        const where = `${route.name} (GET ${url}, kept under ${route.domains.join(', ')})`;
        if (domain === undefined) problems.push(`${where} reads ${table}, which is in no domain (READ_TABLES)`);
        else if (!(route.domains as readonly string[]).includes(domain))
          problems.push(
            `${where} reads ${table} of domain ${domain}, which it is not kept under: ${statement.sql.replace(/\s+/g, ' ').trim().slice(0, 120)}`,
          );
        else if (!route.tables.has(table as ReadTable))
          problems.push(`${where} reads ${table} (${domain}), which no queries class behind ${route.source.name} declares`);
      }
    }
    return problems;
  }
});
