import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig } from '#config';
import { NotFoundError } from '#errors';
import { EndpointTargetRepository } from './endpoint-target.repository.js';
import { sendSignedDelivery, webhookSenderFor } from './signed-delivery.js';
import type { WebhookAttemptResult, WebhookSender } from './webhook-sender.js';

export type TestDeliveryReport = { endpointId: number; url: string; deliveryId: string } & Pick<
  WebhookAttemptResult,
  'outcome' | 'statusCode' | 'durationMs' | 'error'
>;

/**
 * One signed test delivery to an endpoint, so its owner can check the receiver (reachable, verifies the
 * signature, answers 2xx) without waiting for an event. It goes through the same sender and SSRF rules as
 * real deliveries, whatever the endpoint's pause or suspension, and leaves no trace: no delivery row, no
 * attempt, no usage token, no change to the endpoint's health.
 */
@Injectable()
export class TestDeliveryService implements OnModuleDestroy {
  private readonly sender: WebhookSender;

  constructor(
    private readonly dataSource: DataSource,
    private readonly endpoints: EndpointTargetRepository,
    config: AppConfig,
  ) {
    this.sender = webhookSenderFor(config);
  }

  async send(endpointId: number, nowMs = Date.now()): Promise<TestDeliveryReport> {
    const endpoint = await this.endpoints.find(this.dataSource, endpointId);
    if (!endpoint) throw new NotFoundError(`no webhook endpoint with id ${endpointId}`);
    // The time makes each test its own delivery, so a receiver that de-duplicates still answers every test.
    const deliveryId = createHash('sha256').update(`test|${endpointId}|${nowMs}`).digest('hex');
    const result = await sendSignedDelivery(
      this.sender,
      {
        deliveryId,
        consumerId: endpoint.consumerId,
        webhookEndpointId: endpoint.id,
        eventId: 0,
        eventType: 'test',
        occurredAtMs: nowMs,
        payloadJson: JSON.stringify({ message: 'Tidewatch test delivery', endpointId: endpoint.id }),
      },
      endpoint,
      nowMs,
    );
    return {
      endpointId: endpoint.id,
      url: endpoint.url,
      deliveryId,
      outcome: result.outcome,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
    };
  }

  onModuleDestroy(): Promise<void> {
    return this.sender.close();
  }
}
