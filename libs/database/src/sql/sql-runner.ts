/**
 * What a repository needs of a connection: a transaction's EntityManager inside a writer's transaction,
 * the DataSource for a read outside one. Every repository method takes it as its first argument, so the
 * caller decides which transaction the statement belongs to.
 */
export interface SqlRunner {
  // TypeORM's own query() is typed so; each repository names the row type it reads.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(sql: string, parameters?: unknown[]): Promise<any>;
}
