import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ConsumerRepository } from '#auth';
import { InvalidInputError, NotFoundError } from '#errors';
import { AlertRulesRepository, type AlertRuleRecord } from '../rules/alert-rules.repository.js';
import { validateEventType, validateRule } from '../rules/rule-validation.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

export const MAX_RULES_PER_CONSUMER = 1000;

export interface RuleInput {
  eventType?: unknown;
  webhookEndpointId?: unknown;
  addresses?: unknown;
  filters?: unknown;
  paused?: unknown;
}

/** A consumer's alert rules: the contract's limits, the endpoint they deliver to, pause and resume. */
@Injectable()
export class AlertRulesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rules: AlertRulesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly consumers: ConsumerRepository,
  ) {}

  private endpointId(value: unknown): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 2_147_483_647)
      throw new InvalidInputError('webhookEndpointId', 'webhookEndpointId must be the id of one of your webhook endpoints');
    return value;
  }

  async create(consumerId: number, input: RuleInput): Promise<AlertRuleRecord> {
    const rule = validateRule({ eventType: input.eventType, addresses: input.addresses, filters: input.filters });
    const webhookEndpointId = this.endpointId(input.webhookEndpointId);
    return this.dataSource.transaction(async (q) => {
      await this.consumers.lockForUpdate(q, consumerId);
      if (!(await this.endpoints.get(q, consumerId, webhookEndpointId)))
        throw new NotFoundError(`webhook endpoint ${webhookEndpointId} not found`);
      if ((await this.rules.count(q, consumerId)) >= MAX_RULES_PER_CONSUMER)
        throw new InvalidInputError('eventType', `at most ${MAX_RULES_PER_CONSUMER} alert rules per account; delete one first`);
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
    const rule = validateRule({
      eventType: current.eventType,
      addresses: input.addresses === undefined ? current.addresses : input.addresses,
      filters: input.filters === undefined ? current.filters : input.filters,
    });
    const webhookEndpointId = input.webhookEndpointId === undefined ? current.webhookEndpointId : this.endpointId(input.webhookEndpointId);
    return this.dataSource.transaction(async (q) => {
      if (!(await this.endpoints.get(q, consumerId, webhookEndpointId)))
        throw new NotFoundError(`webhook endpoint ${webhookEndpointId} not found`);
      const paused = (input.paused as boolean | undefined) ?? current.paused;
      return found(
        await this.rules.update(q, consumerId, id, { webhookEndpointId, addresses: rule.addresses, filters: rule.filters, paused }),
        id,
      );
    });
  }

  async setPaused(consumerId: number, id: number, paused: boolean): Promise<AlertRuleRecord> {
    return this.update(consumerId, id, { paused });
  }

  async delete(consumerId: number, id: number): Promise<void> {
    await this.dataSource.transaction(async (q) => {
      if (!(await this.rules.delete(q, consumerId, id))) throw new NotFoundError(`alert rule ${id} not found`);
    });
  }
}

function found<T>(value: T | null, id: number): T {
  if (value === null) throw new NotFoundError(`alert rule ${id} not found`);
  return value;
}
