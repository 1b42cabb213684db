import { Logger } from '@nestjs/common';
import type { AppConfig } from '#config';
import { buildDeliveryBody, type EnvelopeParts } from './delivery-envelope.js';
import { WebhookSender, type WebhookAttemptResult } from './webhook-sender.js';
import { deliveryHeaders } from './webhook-signature.js';

let loopbackWarned = false;

/**
 * Says out loud, once per process, that the test-only WEBHOOK_ALLOW_LOOPBACK is on: left on in
 * production it opens the service's own machine to its users' webhooks.
 */
export function warnIfLoopbackAllowed(config: AppConfig, logger: Pick<Logger, 'warn'> = new Logger('Webhooks')): void {
  if (!config.WEBHOOK_ALLOW_LOOPBACK || loopbackWarned) return;
  loopbackWarned = true;
  logger.warn(
    'WEBHOOK_ALLOW_LOOPBACK is on: webhooks may reach this machine (loopback, and plain http to loopback only); it is for tests, never production',
  );
}

/** The sender the settings ask for: loopback receivers only with the test-only setting, the configured time limit. */
export function webhookSenderFor(config: AppConfig): WebhookSender {
  warnIfLoopbackAllowed(config);
  return new WebhookSender({ allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK, requestTimeoutMs: config.WEBHOOK_TIMEOUT_MS });
}

/** One attempt of a delivery: the envelope, signed for this attempt's time, POSTed to the endpoint. */
export function sendSignedDelivery(
  sender: WebhookSender,
  parts: EnvelopeParts,
  endpoint: { url: string; secretKey: string | null },
  nowMs = Date.now(),
): Promise<WebhookAttemptResult> {
  const body = buildDeliveryBody(parts);
  const headers = deliveryHeaders({
    deliveryId: parts.deliveryId,
    eventId: parts.eventId,
    eventType: parts.eventType,
    body,
    secretKey: endpoint.secretKey,
    timestampSec: Math.floor(nowMs / 1000),
  });
  return sender.send(endpoint.url, body, headers);
}
