import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ConsumerRepository } from '#auth';
import { AppConfig } from '#config';
import { InvalidInputError, NotFoundError } from '#errors';
import { DeliveryQueue } from '../../queue/delivery.queue.js';
import { isLoopbackAddress, warnIfLoopbackAllowed } from '../../webhook/index.js';
import { AlertRulesRepository } from '../rules/alert-rules.repository.js';
import { DeliveryLogRepository } from './delivery-log.repository.js';
import { WebhookEndpointsRepository, type WebhookEndpointRecord } from './webhook-endpoints.repository.js';

export const MAX_ENDPOINTS_PER_CONSUMER = 100;
const MAX_URL_LENGTH = 2048;
const SECRET = /^[\x21-\x7e]{8,256}$/;
const MAX_DESCRIPTION = 500;

export interface EndpointInput {
  url?: unknown;
  secretKey?: unknown;
  description?: unknown;
  paused?: unknown;
}

export interface EndpointHealth {
  state: WebhookEndpointRecord['status'];
  consecutiveFailures: number;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  lastHour: { attempts: number; successes: number; failures: number; successRate: number | null };
  lastDay: { attempts: number; successes: number; failures: number; successRate: number | null };
  latencyMs: { p50: number | null; p95: number | null };
}

/** A consumer's webhook endpoints: validation, the pause switch, resume (which sends what was held), health. */
@Injectable()
export class WebhookEndpointsService {
  private readonly logger = new Logger(WebhookEndpointsService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly rules: AlertRulesRepository,
    private readonly log: DeliveryLogRepository,
    private readonly queue: DeliveryQueue,
    private readonly consumers: ConsumerRepository,
  ) {
    warnIfLoopbackAllowed(config);
  }

  private url(value: unknown): string {
    if (typeof value !== 'string' || value.length === 0)
      throw new InvalidInputError('url', "url is required: the receiver's https:// address");
    if (value.length > MAX_URL_LENGTH) throw new InvalidInputError('url', `url must be at most ${MAX_URL_LENGTH} characters`);
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new InvalidInputError('url', 'url is not an absolute URL');
    }
    const loopbackAllowed = this.config.WEBHOOK_ALLOW_LOOPBACK;
    if (parsed.protocol !== 'https:' && !(loopbackAllowed && parsed.protocol === 'http:'))
      throw new InvalidInputError('url', 'url must use https');
    if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname))
      throw new InvalidInputError('url', 'url must use https (http is allowed only for a loopback receiver)');
    if (parsed.username || parsed.password) throw new InvalidInputError('url', 'url must not carry a user name or password');
    return value;
  }

  private secret(value: unknown): string | null {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string' || !SECRET.test(value))
      throw new InvalidInputError('secretKey', 'secretKey must be 8 to 256 printable characters without spaces');
    return value;
  }

  private description(value: unknown): string | null {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string' || value.length > MAX_DESCRIPTION)
      throw new InvalidInputError('description', `description must be a string of at most ${MAX_DESCRIPTION} characters`);
    return value;
  }

  async create(consumerId: number, input: EndpointInput): Promise<WebhookEndpointRecord> {
    const endpoint = {
      url: this.url(input.url),
      secretKey: this.secret(input.secretKey),
      description: this.description(input.description),
    };
    return this.dataSource.transaction(async (q) => {
      await this.consumers.lockForUpdate(q, consumerId);
      if ((await this.endpoints.count(q, consumerId)) >= MAX_ENDPOINTS_PER_CONSUMER) {
        throw new InvalidInputError('url', `at most ${MAX_ENDPOINTS_PER_CONSUMER} webhook endpoints per account; delete one first`);
      }
      return this.endpoints.create(q, consumerId, endpoint);
    });
  }

  list(consumerId: number): Promise<WebhookEndpointRecord[]> {
    return this.endpoints.list(this.dataSource, consumerId);
  }

  async get(consumerId: number, id: number): Promise<WebhookEndpointRecord> {
    return found(await this.endpoints.get(this.dataSource, consumerId, id), id);
  }

  async update(consumerId: number, id: number, input: EndpointInput): Promise<WebhookEndpointRecord> {
    const current = await this.get(consumerId, id);
    if (input.paused !== undefined && typeof input.paused !== 'boolean')
      throw new InvalidInputError('paused', 'paused must be true or false');
    // `paused` left out keeps the stored switch as it is: the status shown ("suspended" outranks "paused")
    // cannot tell whether a suspended endpoint is also paused.
    const changes = {
      url: input.url === undefined ? current.url : this.url(input.url),
      description: input.description === undefined ? current.description : this.description(input.description),
      paused: input.paused as boolean | undefined,
      secretKey: input.secretKey === undefined ? undefined : this.secret(input.secretKey),
    };
    const { record, wasPaused } = found(await this.endpoints.update(this.dataSource, consumerId, id, changes), id);
    if (changes.paused === false && wasPaused && record.status === 'active') await this.releaseHolds(id);
    return record;
  }

  async delete(consumerId: number, id: number): Promise<void> {
    await this.dataSource.transaction(async (q) => {
      if (!(await this.endpoints.delete(q, consumerId, id))) throw new NotFoundError(`webhook endpoint ${id} not found`);
      await this.rules.bumpVersion(q);
    });
  }

  async pause(consumerId: number, id: number): Promise<WebhookEndpointRecord> {
    return found(await this.endpoints.setPaused(this.dataSource, consumerId, id, true), id);
  }

  /** Unpauses and lifts a suspension; what was held for either is sent. */
  async resume(consumerId: number, id: number): Promise<WebhookEndpointRecord> {
    const resumed = found(await this.endpoints.resume(this.dataSource, consumerId, id), id);
    await this.releaseHolds(id);
    return resumed;
  }

  private async releaseHolds(id: number): Promise<void> {
    const released = await this.log.releaseEndpointHolds(this.dataSource, id);
    await this.queue.enqueue(released).catch((error: Error) => {
      this.logger.warn(`${released.length} held deliveries of endpoint ${id} not enqueued (the reconciler will): ${error.message}`);
    });
  }

  async health(consumerId: number, id: number): Promise<EndpointHealth> {
    const endpoint = await this.get(consumerId, id);
    const h = await this.endpoints.health(this.dataSource, id);
    const window = (attempts: number, successes: number) => ({
      attempts,
      successes,
      failures: attempts - successes,
      successRate: attempts ? successes / attempts : null,
    });
    return {
      state: endpoint.status,
      consecutiveFailures: h.consecutive_failures,
      lastSuccessAt: h.last_success_at?.toISOString() ?? null,
      lastFailureAt: h.last_failure_at?.toISOString() ?? null,
      lastHour: window(h.hour_attempts, h.hour_successes),
      lastDay: window(h.day_attempts, h.day_successes),
      latencyMs: { p50: h.p50 === null ? null : Number(h.p50), p95: h.p95 === null ? null : Number(h.p95) },
    };
  }
}

/** A host a plain-http receiver may have: `localhost` or a loopback literal (a name is checked again where the sender connects). */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return host === 'localhost' || isLoopbackAddress(host);
}

function found<T>(value: T | null, id: number): T {
  if (value === null) throw new NotFoundError(`webhook endpoint ${id} not found`);
  return value;
}
