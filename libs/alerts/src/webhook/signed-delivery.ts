import type { AppConfig } from '#config';
import { buildDeliveryBody, type EnvelopeParts } from './delivery-envelope.js';
import { WebhookSender, type WebhookAttemptResult } from './webhook-sender.js';
import { deliveryHeaders } from './webhook-signature.js';

/** The sender the settings ask for: loopback receivers only with the test-only setting, the configured time limit. */
export function webhookSenderFor(config: AppConfig): WebhookSender {
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
