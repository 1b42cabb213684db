import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import type { DataSource, EntitySubscriberInterface } from 'typeorm';

export interface Statement {
  sql: string;
  parameters: unknown[];
}

/**
 * Every statement a route handler runs, whatever runner it passes (the DataSource, a transaction's
 * EntityManager): a TypeORM subscriber sees each query before it is sent, and a global interceptor scopes
 * them to the request with AsyncLocalStorage. Guards run before interceptors, so the token check and the
 * usage counting are left out; with the read cache off, the version read is too.
 */
export class StatementCapture implements NestInterceptor, EntitySubscriberInterface {
  private readonly scope = new AsyncLocalStorage<Statement[]>();
  /** The statements of each request handled, by its URL (path and query). */
  readonly byUrl = new Map<string, Statement[]>();

  /** Captures what `dataSource` runs; pass this to `app.useGlobalInterceptors` before `app.init()`. */
  watch(dataSource: DataSource): void {
    dataSource.subscribers.push(this);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const statements: Statement[] = [];
    this.byUrl.set(context.switchToHttp().getRequest<Request>().originalUrl, statements);
    // Nest binds the rest of the chain (pipes, handler) to the async context `handle()` is called in.
    return this.scope.run(statements, () => next.handle());
  }

  beforeQuery(event: { query: string; parameters?: unknown }): void {
    this.scope.getStore()?.push({ sql: event.query, parameters: Array.isArray(event.parameters) ? event.parameters : [] });
  }
}

/** The statements of a transaction's frame: they read no table. */
const TRANSACTION_CONTROL = /^\s*(START TRANSACTION|BEGIN|COMMIT|ROLLBACK|SET TRANSACTION)\b/i;
const QUERY = /^\s*(\(\s*)*(SELECT|WITH|VALUES|TABLE)\b/i;

/**
 * The tables a statement reads, from Postgres's own plan of it with its parameters (EXPLAIN (FORMAT JSON):
 * every scan names its relation, subplans and CTEs included), each partition as its partitioned table.
 * Transaction control reads nothing; any other statement (a write) is an error: routes only read.
 */
export async function tablesOf(dataSource: DataSource, statement: Statement): Promise<string[]> {
  if (TRANSACTION_CONTROL.test(statement.sql)) return [];
  if (!QUERY.test(statement.sql)) throw new Error(`a read route ran a statement that is not a query: ${statement.sql.slice(0, 200)}`);
  const [row]: Array<{ 'QUERY PLAN': unknown }> = await dataSource.query(`EXPLAIN (FORMAT JSON) ${statement.sql}`, statement.parameters);
  const relations = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'Relation Name' && typeof value === 'string') relations.add(value);
        else walk(value);
      }
    }
  };
  walk(row!['QUERY PLAN']);
  if (relations.size === 0) return [];
  const roots: Array<{ relation: string; root: string }> = await dataSource.query(
    `SELECT c.relname AS relation, coalesce(pg_partition_root(c.oid), c.oid::regclass)::text AS root
     FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relname = ANY($1::text[])`,
    [[...relations]],
  );
  const rootOf = new Map(roots.map((r) => [r.relation, r.root]));
  return [...new Set([...relations].map((relation) => rootOf.get(relation) ?? relation))].sort();
}
