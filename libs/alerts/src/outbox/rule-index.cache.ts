import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';
import { RuleIndex } from '../matching/index.js';
import { AlertRulesRepository } from '../admin/rules/alert-rules.repository.js';

/**
 * The ingestor's in-memory rule index, kept current by the rules version: each transaction reads the
 * version (one row) and reloads every active rule when it differs. Read inside the transaction, so a
 * rule committed before the batch's transaction began is always in force for that batch.
 */
@Injectable()
export class RuleIndexCache {
  private version: string | null = null;
  private index = new RuleIndex([]);

  constructor(private readonly rules: AlertRulesRepository) {}

  async current(q: SqlRunner): Promise<RuleIndex> {
    const version = await this.rules.rulesVersion(q);
    if (version !== this.version) {
      this.index = new RuleIndex(await this.rules.activeRules(q));
      this.version = version;
    }
    return this.index;
  }
}
