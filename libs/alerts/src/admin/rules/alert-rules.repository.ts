import { Injectable } from '@nestjs/common';
import { epochMs, type SqlRunner } from '#database';
import type { AlertRule, EventType, RuleFilters } from '../../alert.types.js';

/** A rule as its owner reads it. */
export interface AlertRuleRecord {
  id: number;
  eventType: EventType;
  webhookEndpointId: number;
  addresses: string[];
  filters: RuleFilters;
  paused: boolean;
  createdAt: string;
  updatedAt: string;
}

interface RuleRow {
  id: number;
  event_type: EventType;
  webhook_endpoint_id: number;
  addresses: string[];
  filters: RuleFilters;
  paused: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, event_type, webhook_endpoint_id, addresses, filters, paused, created_at, updated_at';

const toRecord = (r: RuleRow): AlertRuleRecord => ({
  id: r.id,
  eventType: r.event_type,
  webhookEndpointId: r.webhook_endpoint_id,
  addresses: r.addresses,
  filters: r.filters,
  paused: r.paused,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

export interface RuleChanges {
  webhookEndpointId: number;
  addresses: string[];
  filters: RuleFilters;
  paused: boolean;
}

/**
 * Alert rules, always scoped to their consumer. Every change also bumps `alert_rules_version` (in the
 * caller's transaction), which is how the ingestor learns that its rule index is stale.
 */
@Injectable()
export class AlertRulesRepository {
  async bumpVersion(q: SqlRunner): Promise<void> {
    await q.query(
      `INSERT INTO alert_rules_version (id, version) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET version = alert_rules_version.version + 1`,
    );
  }

  /** The version the rule index was built at ('0' before any change). */
  async rulesVersion(q: SqlRunner): Promise<string> {
    const rows: Array<{ version: string }> = await q.query(`SELECT version::text AS version FROM alert_rules_version WHERE id = 1`);
    return rows[0]?.version ?? '0';
  }

  /** Every rule that is not paused, for the matcher. */
  async activeRules(q: SqlRunner): Promise<AlertRule[]> {
    const rows: Array<{
      id: number;
      consumer_id: number;
      webhook_endpoint_id: number;
      event_type: EventType;
      addresses: string[];
      filters: RuleFilters;
      created_ms: string;
    }> = await q.query(
      `SELECT id, consumer_id, webhook_endpoint_id, event_type, addresses, filters, ${epochMs('created_at')} AS created_ms FROM alert_rules WHERE NOT paused ORDER BY id`,
    );
    return rows.map((r) => ({
      id: r.id,
      consumerId: r.consumer_id,
      webhookEndpointId: r.webhook_endpoint_id,
      eventType: r.event_type,
      addresses: r.addresses,
      filters: r.filters,
      createdAtMs: Number(r.created_ms),
    }));
  }

  /**
   * What the consumer's rules hold against its caps, leaving out `exceptRuleId` (the rule being changed):
   * rules, exchange-wide rules of `exchangeWideTypes`, and addresses summed over all rules.
   */
  async holdings(
    q: SqlRunner,
    consumerId: number,
    exchangeWideTypes: readonly EventType[],
    exceptRuleId: number | null = null,
  ): Promise<{ rules: number; exchangeWide: number; addresses: number }> {
    const rows: Array<{ rules: number; exchange_wide: number; addresses: number }> = await q.query(
      `SELECT count(*)::int AS rules,
              (count(*) FILTER (WHERE cardinality(addresses) = 0 AND event_type = ANY($2::text[])))::int AS exchange_wide,
              coalesce(sum(cardinality(addresses)), 0)::int AS addresses
       FROM alert_rules WHERE consumer_id = $1 AND id IS DISTINCT FROM $3::int`,
      [consumerId, exchangeWideTypes, exceptRuleId],
    );
    return { rules: rows[0]!.rules, exchangeWide: rows[0]!.exchange_wide, addresses: rows[0]!.addresses };
  }

  async create(q: SqlRunner, consumerId: number, rule: { eventType: EventType } & Omit<RuleChanges, 'paused'>): Promise<AlertRuleRecord> {
    const rows: RuleRow[] = await q.query(
      `INSERT INTO alert_rules (consumer_id, webhook_endpoint_id, event_type, addresses, filters) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
      [consumerId, rule.webhookEndpointId, rule.eventType, rule.addresses, JSON.stringify(rule.filters)],
    );
    await this.bumpVersion(q);
    return toRecord(rows[0]!);
  }

  async list(q: SqlRunner, consumerId: number, filter: { eventType?: EventType; webhookEndpointId?: number }): Promise<AlertRuleRecord[]> {
    const rows: RuleRow[] = await q.query(
      `SELECT ${COLUMNS} FROM alert_rules
       WHERE consumer_id = $1 AND ($2::text IS NULL OR event_type = $2) AND ($3::int IS NULL OR webhook_endpoint_id = $3)
       ORDER BY id`,
      [consumerId, filter.eventType ?? null, filter.webhookEndpointId ?? null],
    );
    return rows.map(toRecord);
  }

  async get(q: SqlRunner, consumerId: number, id: number): Promise<AlertRuleRecord | null> {
    const rows: RuleRow[] = await q.query(`SELECT ${COLUMNS} FROM alert_rules WHERE consumer_id = $1 AND id = $2`, [consumerId, id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async update(q: SqlRunner, consumerId: number, id: number, changes: RuleChanges): Promise<AlertRuleRecord | null> {
    const rows: RuleRow[] = await q.query(
      `WITH changed AS (
         UPDATE alert_rules SET webhook_endpoint_id = $3, addresses = $4, filters = $5, paused = $6, updated_at = now()
         WHERE consumer_id = $1 AND id = $2 RETURNING ${COLUMNS}
       )
       SELECT * FROM changed`,
      [consumerId, id, changes.webhookEndpointId, changes.addresses, JSON.stringify(changes.filters), changes.paused],
    );
    if (!rows[0]) return null;
    await this.bumpVersion(q);
    return toRecord(rows[0]);
  }

  async delete(q: SqlRunner, consumerId: number, id: number): Promise<boolean> {
    const rows = await q.query(`WITH gone AS (DELETE FROM alert_rules WHERE consumer_id = $1 AND id = $2 RETURNING 1) SELECT 1 FROM gone`, [
      consumerId,
      id,
    ]);
    if (rows.length === 0) return false;
    await this.bumpVersion(q);
    return true;
  }
}
