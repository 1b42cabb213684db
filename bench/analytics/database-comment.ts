import type pg from 'pg';

// A load records what it left in the database's own comment, so a later run can tell a finished load it
// may reuse from an interrupted or older one.

/** The comment of the connected database as the JSON a load wrote, or null when it has none. */
export async function readDatabaseComment(client: pg.ClientBase): Promise<Record<string, unknown> | null> {
  const { rows } = await client.query<{ comment: string | null }>(
    `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = current_database()`,
  );
  const comment = rows[0]?.comment;
  return comment?.startsWith('{') ? (JSON.parse(comment) as Record<string, unknown>) : null;
}

export async function writeDatabaseComment(client: pg.ClientBase, value: unknown): Promise<void> {
  const { rows } = await client.query<{ name: string }>(`SELECT current_database() AS name`);
  await client.query(`COMMENT ON DATABASE "${rows[0]!.name}" IS ${client.escapeLiteral(JSON.stringify(value))}`);
}
