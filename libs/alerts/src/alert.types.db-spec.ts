import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { resetDatabase, useTestEnvironment } from '#testing';
import { EVENT_TYPES } from './alert.types.js';

// The migrations are frozen (a migration reading EVENT_TYPES would give a new database a list that one
// migrated earlier never got), so the list is followed by hand and this spec holds the two together: a
// type added to EVENT_TYPES fails here until a new migration puts it in alert_rules' CHECK.

describe('alert_rules.event_type, as migrated', () => {
  const config = useTestEnvironment();
  let dataSource: DataSource;

  beforeAll(async () => {
    await resetDatabase(config.DATABASE_URL);
    dataSource = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
  });

  it('is checked against exactly the event types of EVENT_TYPES', async () => {
    const checks: Array<{ definition: string }> = await dataSource.query(
      `SELECT pg_get_constraintdef(c.oid) AS definition
       FROM pg_constraint c
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
       WHERE c.conrelid = 'alert_rules'::regclass AND c.contype = 'c' AND a.attname = 'event_type'`,
    );
    expect(checks).toHaveLength(1);
    // Postgres keeps `IN (...)` as `= ANY (ARRAY['a'::text, ...])`.
    const allowed = [...checks[0]!.definition.matchAll(/'([^']*)'::text/g)].map((m) => m[1]!);
    expect(allowed.sort()).toEqual([...EVENT_TYPES].sort());
  });
});
