import { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1763700000000 implements MigrationInterface {
  name = 'Foundation1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE consumers (
        id serial PRIMARY KEY,
        name text NOT NULL,
        plan text NOT NULL CHECK (plan IN ('free', 'tier1', 'tier2', 'tier3', 'tier4')),
        rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0),
        usage_limit bigint CHECK (usage_limit > 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE api_tokens (
        id uuid PRIMARY KEY,
        consumer_id integer NOT NULL REFERENCES consumers (id) ON DELETE CASCADE,
        label text,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX api_tokens_consumer_idx ON api_tokens (consumer_id)`);
    await q.query(`CREATE INDEX api_tokens_revoked_idx ON api_tokens (revoked_at) WHERE revoked_at IS NOT NULL`);
    await q.query(`
      CREATE TABLE usage (
        consumer_id integer NOT NULL REFERENCES consumers (id) ON DELETE CASCADE,
        period_start timestamptz NOT NULL,
        used bigint NOT NULL DEFAULT 0 CHECK (used >= 0),
        PRIMARY KEY (consumer_id, period_start)
      )`);
    await q.query(`
      CREATE TABLE state_status (
        id smallint PRIMARY KEY CHECK (id = 1),
        latest_height bigint,
        latest_state_time timestamptz,
        processed_height bigint,
        processed_state_time timestamptz,
        processed_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE state_status`);
    await q.query(`DROP TABLE usage`);
    await q.query(`DROP TABLE api_tokens`);
    await q.query(`DROP TABLE consumers`);
  }
}
