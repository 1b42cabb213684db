import { sqlArray, type SqlArrayElement } from './sql-array.js';
import type { SqlRunner } from './sql-runner.js';

/**
 * `INSERT INTO <table> SELECT FROM unnest(<one array per column>) ON CONFLICT ...`: any number of rows in
 * one statement, returning how many were inserted (or updated, with DO UPDATE, which sees the stored row
 * as `t`). Built once per repository:
 *
 *   new BulkInsert<Row>('funding_payments', 'address text, coin text, usdc numeric, time timestamptz',
 *     (r) => [r.address, r.coin, r.usdc, r.time], '(address, coin, time) DO NOTHING')
 *
 * `columns` lists the table's columns with the element type of their array parameter; `values` gives a
 * row's values in that order; `select` converts a column whose unnested value `x.<name>` cannot be stored
 * as it is (JSON text to jsonb, say).
 */
export class BulkInsert<R> {
  readonly columnNames: readonly string[];
  private readonly sql: string;

  constructor(
    readonly table: string,
    columns: string,
    private readonly values: (row: R) => readonly SqlArrayElement[],
    conflict: string,
    select: Readonly<Record<string, (value: string) => string>> = {},
  ) {
    const parsed = columns.split(',').map((column) => {
      const [name, type, ...rest] = column.trim().split(/\s+/);
      if (!name || !type || rest.length > 0) throw new Error(`BulkInsert ${table}: "${column.trim()}" is not "name type"`);
      return { name, type };
    });
    for (const name of Object.keys(select))
      if (!parsed.some((c) => c.name === name)) throw new Error(`BulkInsert ${table}: select for unknown column ${name}`);
    this.columnNames = parsed.map((c) => c.name);
    const names = this.columnNames.join(', ');
    const arrays = parsed.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ');
    const selected = parsed.map((c) => select[c.name]?.(`x.${c.name}`) ?? `x.${c.name}`).join(', ');
    this.sql = `
      WITH inserted AS (
        INSERT INTO ${table} AS t (${names})
        SELECT ${selected} FROM unnest(${arrays}) AS x(${names})
        ON CONFLICT ${conflict}
        RETURNING 1
      )
      SELECT count(*)::int AS n FROM inserted`;
  }

  async run(q: SqlRunner, rows: readonly R[]): Promise<number> {
    if (rows.length === 0) return 0;
    const tuples = rows.map(this.values);
    const width = this.columnNames.length;
    if (tuples[0]!.length !== width) throw new Error(`BulkInsert ${this.table}: ${tuples[0]!.length} values for ${width} columns`);
    const arrays = this.columnNames.map((_, i) => sqlArray(tuples.map((t) => t[i])));
    const result: Array<{ n: number }> = await q.query(this.sql, arrays);
    return result[0]!.n;
  }
}
