/**
 * The WHERE clause and parameters of a filtered, keyset-paginated list: every list route builds its
 * conditions here, so filters and cursors are written one way. Each `?` in a condition takes the next
 * value as a numbered parameter; values never enter the SQL text.
 *
 *   const list = new ListQuery().where('address = ?', address).whereDefined('close_time >= ?', start);
 *   list.after(['close_time', 'hash'], cursor, 'desc');
 *   q.query(`SELECT ... FROM t WHERE ${list.condition} ORDER BY close_time DESC, hash DESC LIMIT ${list.param(limit + 1)}`, list.params)
 */
export class ListQuery {
  readonly params: unknown[] = [];
  private readonly conditions: string[] = [];

  /** Adds a value and returns its placeholder (`$n`). */
  param(value: unknown): string {
    return `$${this.params.push(value)}`;
  }

  /** A condition; each `?` takes the next of `values`. Parenthesised, so an OR inside stays inside. */
  where(condition: string, ...values: unknown[]): this {
    const parts = condition.split('?');
    if (parts.length - 1 !== values.length)
      throw new Error(`ListQuery: ${parts.length - 1} placeholders for ${values.length} values in "${condition}"`);
    this.conditions.push(`(${parts.reduce((sql, part, i) => sql + this.param(values[i - 1]) + part)})`);
    return this;
  }

  /** A filter the caller may leave out: added only when `value` is defined. */
  whereDefined<T>(condition: string, value: T | undefined, convert: (value: T) => unknown = (v) => v): this {
    return value === undefined ? this : this.where(condition, convert(value));
  }

  /** Rows after the cursor row in `(columns)` order (`asc`) or before it (`desc`); nothing when no cursor. */
  after(columns: readonly string[], keys: readonly unknown[] | null | undefined, direction: 'asc' | 'desc'): this {
    if (!keys) return this;
    if (keys.length !== columns.length) throw new Error(`ListQuery: ${keys.length} cursor keys for ${columns.length} columns`);
    const placeholders = keys.map((key) => this.param(key)).join(', ');
    this.conditions.push(`(${columns.join(', ')}) ${direction === 'asc' ? '>' : '<'} (${placeholders})`);
    return this;
  }

  /** The conditions joined with AND (`TRUE` when there are none). */
  get condition(): string {
    return this.conditions.length === 0 ? 'TRUE' : this.conditions.join(' AND ');
  }
}
