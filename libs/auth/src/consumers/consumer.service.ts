import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SqlRunner } from '#database';
import { InvalidInputError, NotFoundError } from '#errors';
import { IssuedToken, TokenService } from '../tokens/token.service.js';
import { ConsumerDirectoryService, ConsumerLimits } from './consumer-directory.service.js';
import { ConsumerRepository, ConsumerRow } from './consumer.repository.js';
import type { ApiTokenRow } from '../tokens/api-token.repository.js';
import { isPlanId, PLAN_IDS } from './plans.js';
import { UsageMeterService, UsageReport } from '../quota/usage-meter.service.js';

export interface CreateConsumerInput {
  name: string;
  plan: string;
  rateLimitPerMinute?: number;
  usageLimit?: number;
}

/** The "API dashboard" operations: accounts, their tokens and their usage. */
@Injectable()
export class ConsumerService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly consumers: ConsumerRepository,
    private readonly directory: ConsumerDirectoryService,
    private readonly tokens: TokenService,
    private readonly meter: UsageMeterService,
  ) {}

  async create(input: CreateConsumerInput): Promise<{ consumerId: number; token: string }> {
    // One transaction: a failure between the two never leaves an account without a token.
    return this.dataSource.transaction(async (q) => {
      const consumer = await this.register(q, input);
      const { token } = await this.tokens.issue(consumer.id, {}, q);
      return { consumerId: consumer.id, token };
    });
  }

  /** Stores a new consumer through `q` (a caller's transaction) without a token: the dashboard's sign-up. */
  async register(q: SqlRunner, input: CreateConsumerInput): Promise<ConsumerRow> {
    if (!input.name?.trim()) throw new InvalidInputError('name', 'name must not be empty');
    const plan = input.plan;
    if (!isPlanId(plan)) throw new InvalidInputError('plan', `plan must be one of ${PLAN_IDS.join(', ')}`);
    for (const [field, value] of Object.entries({ rateLimitPerMinute: input.rateLimitPerMinute, usageLimit: input.usageLimit })) {
      if (value !== undefined && (!Number.isSafeInteger(value) || value <= 0))
        throw new InvalidInputError(field, `${field} must be a positive integer`);
    }
    return this.consumers.create(q, { ...input, name: input.name.trim(), plan });
  }

  async issueToken(
    consumerId: number,
    options: { label?: string; expiresInSeconds?: number } = {},
  ): Promise<IssuedToken & { consumerId: number }> {
    await this.limitsOf(consumerId);
    return { consumerId, ...(await this.tokens.issue(consumerId, options)) };
  }

  /** With `ownerId`, a token of another consumer is not found, so no one learns it exists. */
  async revokeToken(tokenId: string, ownerId?: number): Promise<{ tokenId: string; consumerId: number; revokedAt: string }> {
    const row = await this.tokens.revoke(tokenId, ownerId);
    if (!row?.revokedAt) throw new NotFoundError(`no token with id ${tokenId}`);
    return { tokenId: row.id, consumerId: row.consumerId, revokedAt: row.revokedAt.toISOString() };
  }

  listTokens(consumerId: number): Promise<ApiTokenRow[]> {
    return this.tokens.listUnrevoked(consumerId);
  }

  async usage(consumerId: number): Promise<UsageReport> {
    return this.meter.report(await this.limitsOf(consumerId));
  }

  private async limitsOf(consumerId: number): Promise<ConsumerLimits> {
    const limits = await this.directory.lookup(consumerId);
    if (!limits) throw new NotFoundError(`no consumer with id ${consumerId}`);
    return limits;
  }
}
