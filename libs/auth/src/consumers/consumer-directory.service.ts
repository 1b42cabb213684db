import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ConsumerRepository } from './consumer.repository.js';
import { Plan, PLANS } from './plans.js';

/** A consumer's effective limits: its plan's, or the custom ones negotiated for it. */
export interface ConsumerLimits {
  consumerId: number;
  plan: Plan;
  requestsPerMinute: number;
  usageLimit: number;
}

const CACHE_TTL_MS = 30_000;

/**
 * Answers "what may this consumer do" on the request path from memory; a plan change reaches
 * every api process within CACHE_TTL_MS.
 */
@Injectable()
export class ConsumerDirectoryService {
  private readonly cache = new Map<number, { limits: ConsumerLimits | null; expiresAt: number }>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly consumers: ConsumerRepository,
  ) {}

  /** Synchronous when cached, so the hot path allocates no promise. */
  lookup(consumerId: number): ConsumerLimits | null | Promise<ConsumerLimits | null> {
    const hit = this.cache.get(consumerId);
    if (hit && hit.expiresAt > Date.now()) return hit.limits;
    return this.load(consumerId);
  }

  private async load(consumerId: number): Promise<ConsumerLimits | null> {
    const row = await this.consumers.findById(this.dataSource, consumerId);
    const limits = row
      ? {
          consumerId,
          plan: PLANS[row.plan],
          requestsPerMinute: row.rateLimitPerMinute ?? PLANS[row.plan].requestsPerMinute,
          usageLimit: row.usageLimit ?? PLANS[row.plan].usageLimit,
        }
      : null;
    this.cache.set(consumerId, { limits, expiresAt: Date.now() + CACHE_TTL_MS });
    return limits;
  }
}
