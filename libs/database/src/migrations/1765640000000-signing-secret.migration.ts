import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The service secret generated on first start when JWT_SECRET is not set (SigningSecretRepository): one row,
 * so every process of a deployment (api, ingestor, dispatcher, CLI, on any machine) derives the same keys.
 */
export class SigningSecret1765640000000 implements MigrationInterface {
  name = 'SigningSecret1765640000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE signing_secret (
        id smallint PRIMARY KEY CHECK (id = 1),
        secret bytea NOT NULL CHECK (octet_length(secret) = 32),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE signing_secret`);
  }
}
