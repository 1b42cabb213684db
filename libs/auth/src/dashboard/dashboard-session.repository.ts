import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';
import type { PlanId } from '../consumers/plans.js';

/** Who a live session belongs to: what every dashboard route needs. */
export interface SessionAccount {
  accountId: number;
  email: string;
  consumerId: number;
  plan: PlanId;
}

/** Sessions by the SHA-256 of the cookie's value: a leaked table holds nothing a browser could send. */
@Injectable()
export class DashboardSessionRepository {
  async insert(q: SqlRunner, session: { tokenHash: Buffer; accountId: number; expiresAt: Date }): Promise<void> {
    await q.query(`INSERT INTO dashboard_sessions (token_hash, account_id, expires_at) VALUES ($1, $2, $3)`, [
      session.tokenHash,
      session.accountId,
      session.expiresAt.toISOString(),
    ]);
  }

  async findLive(q: SqlRunner, tokenHash: Buffer): Promise<SessionAccount | null> {
    const rows: Array<{ account_id: number; email: string; consumer_id: number; plan: PlanId }> = await q.query(
      `SELECT a.id AS account_id, a.email, a.consumer_id, c.plan
       FROM dashboard_sessions s
       JOIN dashboard_accounts a ON a.id = s.account_id
       JOIN consumers c ON c.id = a.consumer_id
       WHERE s.token_hash = $1 AND s.expires_at > now()`,
      [tokenHash],
    );
    const r = rows[0];
    return r ? { accountId: r.account_id, email: r.email, consumerId: r.consumer_id, plan: r.plan } : null;
  }

  async delete(q: SqlRunner, tokenHash: Buffer): Promise<void> {
    await q.query(`DELETE FROM dashboard_sessions WHERE token_hash = $1`, [tokenHash]);
  }
}
