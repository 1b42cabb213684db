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

  /** Every domain's version as one string (`facts:12,state:9`); it changes whenever any of them does. */
  async current(q: SqlRunner): Promise<string> {
    const rows: Array<{ v: string | null }> = await q.query(`SELECT string_agg(domain || ':' || version, ',' ORDER BY domain) AS v FROM read_versions`);
    return rows[0]?.v ?? '';
  }
}
