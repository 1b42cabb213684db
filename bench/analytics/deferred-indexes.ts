import type pg from 'pg';

/**
 * Builds the indexes of bulk-loaded tables after the load instead of during it: millions of random
 * inserts into a primary key larger than shared_buffers are the slowest part of a load, a sorted build
 * is minutes faster. The migrations stay the only definition of the schema: the definitions are read
 * from the migrated database, dropped, and run again in their creation order (a partition's index
 * names depend on it, `..._idx1` for the second index on the same columns).
 */
interface IndexDefinition {
  table_name: string;
  index_name: string;
  constraint_name: string | null;
  constraint_def: string | null;
  index_def: string;
}

/** Drops the indexes and primary or unique keys of `tables` (partitioned ones with their partitions'); returns the function that rebuilds them. */
export async function deferIndexes(client: pg.ClientBase, tables: string[]): Promise<() => Promise<void>> {
  const { rows } = await client.query<IndexDefinition>(
    `SELECT t.relname AS table_name, i.relname AS index_name, con.conname AS constraint_name,
            pg_get_constraintdef(con.oid) AS constraint_def, pg_get_indexdef(i.oid) AS index_def
     FROM pg_index x
     JOIN pg_class i ON i.oid = x.indexrelid
     JOIN pg_class t ON t.oid = x.indrelid
     LEFT JOIN pg_constraint con ON con.conindid = i.oid AND con.conrelid = t.oid AND con.contype IN ('p', 'u')
     WHERE t.relnamespace = 'public'::regnamespace AND t.relname = ANY($1)
       -- A partition's share of its parent's index goes and comes back with the parent's.
       AND NOT EXISTS (SELECT 1 FROM pg_inherits h WHERE h.inhrelid = i.oid)
     ORDER BY i.oid`,
    [tables],
  );
  for (const r of rows) {
    await client.query(
      r.constraint_name ? `ALTER TABLE ${r.table_name} DROP CONSTRAINT ${r.constraint_name}` : `DROP INDEX ${r.index_name}`,
    );
  }
  return async () => {
    for (const r of rows) {
      // A partitioned table's index reads "ON ONLY fills"; built on the table it is built on every partition too.
      await client.query(
        r.constraint_name
          ? `ALTER TABLE ${r.table_name} ADD CONSTRAINT ${r.constraint_name} ${r.constraint_def}`
          : r.index_def.replace(' ON ONLY ', ' ON '),
      );
    }
  };
}

/** Every index and constraint of the public schema with its definition, one per line, sorted: equal texts, equal schemas. */
export async function schemaSnapshot(client: pg.ClientBase): Promise<string> {
  const { rows } = await client.query<{ line: string }>(
    `SELECT format('index %s.%s: %s', tablename, indexname, indexdef) AS line FROM pg_indexes WHERE schemaname = 'public'
     UNION ALL
     SELECT format('constraint %s.%s: %s', conrelid::regclass, conname, pg_get_constraintdef(oid)) FROM pg_constraint WHERE connamespace = 'public'::regnamespace
     UNION ALL
     SELECT format('table %s: %s', relname, reloptions) FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p')
     ORDER BY 1`,
  );
  return rows.map((r) => r.line).join('\n');
}
