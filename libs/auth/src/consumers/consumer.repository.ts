import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';
import type { PlanId } from './plans.js';

export interface ConsumerRow {
  id: number;
  name: string;
  plan: PlanId;
  rateLimitPerMinute: number | null;
  usageLimit: number | null;
  createdAt: Date;
}

interface ConsumerRecord {
  id: number;
  name: string;
  plan: PlanId;
  rate_limit_per_minute: number | null;
  /** bigint: a string from node-postgres. */
  usage_limit: string | null;
  created_at: Date;
}

const COLUMNS = 'id, name, plan, rate_limit_per_minute, usage_limit, created_at';

function toRow(r: ConsumerRecord): ConsumerRow {
  return {
    id: r.id,
    name: r.name,
    plan: r.plan,
    rateLimitPerMinute: r.rate_limit_per_minute,
    usageLimit: r.usage_limit === null ? null : Number(r.usage_limit),
    createdAt: r.created_at,
  };
}

@Injectable()
export class ConsumerRepository {
  /** Custom limits left out mean the plan's own (stored as null). */
  async create(
    q: SqlRunner,
    input: { name: string; plan: PlanId; rateLimitPerMinute?: number; usageLimit?: number },
  ): Promise<ConsumerRow> {
    const rows: ConsumerRecord[] = await q.query(
      `INSERT INTO consumers (name, plan, rate_limit_per_minute, usage_limit) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [input.name, input.plan, input.rateLimitPerMinute ?? null, input.usageLimit ?? null],
    );
    return toRow(rows[0]!);
  }

  /**
   * Locks the consumer's row until `q`'s transaction ends: what is counted against the consumer's caps
   * (its webhook endpoints, its alert rules) is created one at a time, so two concurrent creations never
   * both pass the count.
   */
  async lockForUpdate(q: SqlRunner, id: number): Promise<void> {
    await q.query(`SELECT 1 FROM consumers WHERE id = $1 FOR UPDATE`, [id]);
  }

  async findById(q: SqlRunner, id: number): Promise<ConsumerRow | null> {
    const rows: ConsumerRecord[] = await q.query(`SELECT ${COLUMNS} FROM consumers WHERE id = $1`, [id]);
    return rows.length ? toRow(rows[0]!) : null;
  }
}
