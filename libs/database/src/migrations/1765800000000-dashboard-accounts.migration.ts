import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dashboard sign-in: an account (email and argon2id hash) is one consumer, and its sessions are kept here
 * (by the hash of the cookie's value) so signing out ends one at once. A token keeps the last characters
 * of its signature, what the dashboard shows to tell keys apart (the token itself is still never stored),
 * and when it was last used.
 */
export class DashboardAccounts1765800000000 implements MigrationInterface {
  name = 'DashboardAccounts1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dashboard_accounts (
        id serial PRIMARY KEY,
        email text NOT NULL UNIQUE CHECK (email = lower(email)),
        password_hash text NOT NULL,
        consumer_id integer NOT NULL UNIQUE REFERENCES consumers (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE dashboard_sessions (
        token_hash bytea PRIMARY KEY,
        account_id integer NOT NULL REFERENCES dashboard_accounts (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX dashboard_sessions_account_idx ON dashboard_sessions (account_id)`);
    await q.query(`ALTER TABLE api_tokens ADD COLUMN tail text, ADD COLUMN last_used_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_tokens DROP COLUMN tail, DROP COLUMN last_used_at`);
    await q.query(`DROP TABLE dashboard_sessions`);
    await q.query(`DROP TABLE dashboard_accounts`);
  }
}
