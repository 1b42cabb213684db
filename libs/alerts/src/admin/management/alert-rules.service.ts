import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ConsumerRepository, PLANS } from '#auth';
import type { SqlRunner } from '#database';
import { InvalidInputError, NotFoundError, PlanLimitError } from '#errors';
import { AlertRulesRepository, type AlertRuleRecord } from '../rules/alert-rules.repository.js';
import { KnownMarketsRepository } from '../rules/known-markets.repository.js';
import { canonicalMarkets, ruleMarketNames } from '../rules/rule-markets.js';
import { EXCHANGE_WIDE_TYPES, validateEventType, validateRule, type ValidRule } from '../rules/rule-validation.js';
import { DeliveryLogRepository } from './delivery-log.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

export const MAX_RULES_PER_CONSUMER = 1000;

export interface RuleInput {
  eventType?: unknown;
  webhookEndpointId?: unknown;
  addresses?: unknown;
  filters?: unknown;
  paused?: unknown;
}

/**
 * A consumer's alert rules: the contract's limits, the plan's caps, market names checked against the
 * known markets, the endpoint they deliver to, pause and resume. Deleting or pausing a rule cancels the
 * deliveries it still owed, in the same transaction.
 */
@Injectable()
export class AlertRulesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rules: AlertRulesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly consumers: ConsumerRepository,
    private readonly markets: KnownMarketsRepository,
    private readonly log: DeliveryLogRepository,
  ) {}

  private endpointId(value: unknown): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 2_147_483_647)
      throw new InvalidInputError('webhookEndpointId', 'webhookEndpointId must be the id of one of your webhook endpoints');
    return value;
  }

  async create(consumerId: number, input: RuleInput): Promise<AlertRuleRecord> {
    const valid = validateRule({ eventType: input.eventType, addresses: input.addresses, filters: input.filters });
    const webhookEndpointId = this.endpointId(input.webhookEndpointId);
    return this.dataSource.transaction(async (q) => {
      await this.consumers.lockForUpdate(q, consumerId);
      if (!(await this.endpoints.get(q, consumerId, webhookEndpointId)))
        throw new NotFoundError(`webhook endpoint ${webhookEndpointId} not found`);
      const rule = await this.withKnownMarkets(q, valid);
      await this.checkCaps(q, consumerId, rule, null);
      return this.rules.create(q, consumerId, { ...rule, webhookEndpointId });
    });
  }

  list(consumerId: number, filter: { eventType?: string; webhookEndpointId?: number }): Promise<AlertRuleRecord[]> {
    return this.rules.list(this.dataSource, consumerId, {
      eventType: filter.eventType === undefined ? undefined : validateEventType(filter.eventType),
      webhookEndpointId: filter.webhookEndpointId,
    });
  }

  async get(consumerId: number, id: number): Promise<AlertRuleRecord> {
    return found(await this.rules.get(this.dataSource, consumerId, id), id);
  }

  /** Replaces what is given (filters whole); the event type cannot change: make a new rule instead. */
  async update(consumerId: number, id: number, input: RuleInput): Promise<AlertRuleRecord> {
    const current = await this.get(consumerId, id);
    if (input.eventType !== undefined && input.eventType !== current.eventType)
      throw new InvalidInputError('eventType', 'eventType cannot change; create a new rule instead');
    if (input.paused !== undefined && typeof input.paused !== 'boolean')
      throw new InvalidInputError('paused', 'paused must be true or false');
    const valid = validateRule({
      eventType: current.eventType,
      addresses: input.addresses === undefined ? current.addresses : input.addresses,
      filters: input.filters === undefined ? current.filters : input.filters,
    });
    const webhookEndpointId = input.webhookEndpointId === undefined ? current.webhookEndpointId : this.endpointId(input.webhookEndpointId);
    return this.dataSource.transaction(async (q) => {
      await this.consumers.lockForUpdate(q, consumerId);
      if (!(await this.endpoints.get(q, consumerId, webhookEndpointId)))
        throw new NotFoundError(`webhook endpoint ${webhookEndpointId} not found`);
      // Markets are checked only when the filters change: a stored rule keeps working as it was made.
      const rule = input.filters === undefined ? valid : await this.withKnownMarkets(q, valid);
      if (input.addresses !== undefined) await this.checkCaps(q, consumerId, rule, id);
      const paused = (input.paused as boolean | undefined) ?? current.paused;
      const updated = found(
        await this.rules.update(q, consumerId, id, { webhookEndpointId, addresses: rule.addresses, filters: rule.filters, paused }),
        id,
      );
      if (paused && !current.paused) await this.log.cancelForRule(q, id, 'cancelled: the rule was paused before it was sent');
      return updated;
    });
  }

  async setPaused(consumerId: number, id: number, paused: boolean): Promise<AlertRuleRecord> {
    return this.update(consumerId, id, { paused });
  }

  async delete(consumerId: number, id: number): Promise<void> {
    await this.dataSource.transaction(async (q) => {
      if (!(await this.rules.delete(q, consumerId, id))) throw new NotFoundError(`alert rule ${id} not found`);
      await this.log.cancelForRule(q, id, 'cancelled: the rule was deleted before it was sent');
    });
  }

  private async withKnownMarkets(q: SqlRunner, rule: ValidRule): Promise<ValidRule> {
    const names = ruleMarketNames(rule.filters);
    if (names.length === 0) return rule;
    return { ...rule, filters: canonicalMarkets(rule.filters, await this.markets.find(q, names)) };
  }

  /** The account's rule count, then the plan's caps, with `rule` in place of rule `exceptId` (an update). */
  private async checkCaps(q: SqlRunner, consumerId: number, rule: ValidRule, exceptId: number | null): Promise<void> {
    const held = await this.rules.holdings(q, consumerId, EXCHANGE_WIDE_TYPES, exceptId);
    if (exceptId === null && held.rules >= MAX_RULES_PER_CONSUMER)
      throw new InvalidInputError('eventType', `at most ${MAX_RULES_PER_CONSUMER} alert rules per account; delete one first`);
    const consumer = await this.consumers.findById(q, consumerId);
    if (!consumer) throw new NotFoundError(`consumer ${consumerId} not found`);
    const plan = PLANS[consumer.plan];
    if (rule.addresses.length === 0 && EXCHANGE_WIDE_TYPES.includes(rule.eventType) && held.exchangeWide >= plan.exchangeWideRules)
      throw new PlanLimitError(
        'exchangeWideRules',
        plan.id,
        plan.exchangeWideRules,
        `the ${plan.name} plan allows ${plan.exchangeWideRules} exchange-wide rules (rules without addresses of ${EXCHANGE_WIDE_TYPES.join(', ')}), and this account has ${held.exchangeWide}: give the rule addresses, delete one, or change plan`,
      );
    if (held.addresses + rule.addresses.length > plan.ruleAddresses)
      throw new PlanLimitError(
        'ruleAddresses',
        plan.id,
        plan.ruleAddresses,
        `the ${plan.name} plan allows ${plan.ruleAddresses} addresses over all alert rules; this account's other rules hold ${held.addresses} and this rule ${rule.addresses.length}`,
      );
  }
}

function found<T>(value: T | null, id: number): T {
  if (value === null) throw new NotFoundError(`alert rule ${id} not found`);
  return value;
}
