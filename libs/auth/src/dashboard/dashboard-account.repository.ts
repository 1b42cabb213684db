import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';
import type { PlanId } from '../consumers/plans.js';

export interface DashboardAccountRow {
  id: number;
  email: string;
  passwordHash: string;
  consumerId: number;
  plan: PlanId;
}

interface DashboardAccountRecord {
  id: number;
  email: string;
  password_hash: string;
  consumer_id: number;
  plan: PlanId;
}

const toRow = (r: DashboardAccountRecord): DashboardAccountRow => ({
  id: r.id,
  email: r.email,
  passwordHash: r.password_hash,
  consumerId: r.consumer_id,
  plan: r.plan,
});

@Injectable()
export class DashboardAccountRepository {
  /** Null when the email is taken (the unique index decides, so two sign-ups at once cannot both win). */
  async insert(q: SqlRunner, account: { email: string; passwordHash: string; consumerId: number }): Promise<number | null> {
    const rows: Array<{ id: number }> = await q.query(
      `INSERT INTO dashboard_accounts (email, password_hash, consumer_id) VALUES ($1, $2, $3)
       ON CONFLICT (email) DO NOTHING RETURNING id`,
      [account.email, account.passwordHash, account.consumerId],
    );
    return rows[0]?.id ?? null;
  }

  async findByEmail(q: SqlRunner, email: string): Promise<DashboardAccountRow | null> {
    const rows: DashboardAccountRecord[] = await q.query(
      `SELECT a.id, a.email, a.password_hash, a.consumer_id, c.plan
       FROM dashboard_accounts a JOIN consumers c ON c.id = a.consumer_id WHERE a.email = $1`,
      [email],
    );
    return rows.length ? toRow(rows[0]!) : null;
  }
}
