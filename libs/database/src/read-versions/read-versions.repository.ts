import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '../sql/sql-runner.js';

/** The kinds of data a writer changes, one transaction stream each, so two writers never wait on one row. */
export type ReadDomain = 'facts' | 'projections' | 'state' | 'favorites';

/**
 * Versions of the data the analytics routes read. Every writer of that data bumps its domain as the last
 * statement of its transaction (the row stays locked only while the commit runs), so the bump is visible
 * exactly when the data is. A reader that takes the versions before its own statements sees data at least
 * as new as them: what it renders may be kept under those versions (the api's read cache).
 */
@Injectable()
export class ReadVersionsRepository {
  async bump(q: SqlRunner, domain: ReadDomain): Promise<void> {
    await q.query(
      `INSERT INTO read_versions (domain, version) VALUES ($1, nextval('read_versions_seq'))
       ON CONFLICT (domain) DO UPDATE SET version = EXCLUDED.version`,
      [domain],
    );
  }

  /** Each domain's version (a domain never bumped has none). */
  async current(q: SqlRunner): Promise<Map<string, string>> {
    const rows: Array<{ domain: string; version: string }> = await q.query(`SELECT domain, version::text AS version FROM read_versions`);
    return new Map(rows.map((r) => [r.domain, r.version]));
  }
}
