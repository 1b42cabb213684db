/** What the envelope of one delivery is made of; `payloadJson` is the stored payload text. */
export interface EnvelopeParts {
  deliveryId: string;
  consumerId: number;
  webhookEndpointId: number;
  eventId: number;
  eventType: string;
  occurredAtMs: number;
  payloadJson: string;
}

/**
 * The raw JSON body of a delivery, keys in the contract's order. The payload goes in verbatim, never
 * re-serialised, so every attempt of a delivery sends the same bytes (and the same signature input).
 */
export function buildDeliveryBody(d: EnvelopeParts): string {
  const head = JSON.stringify({
    deliveryId: d.deliveryId,
    consumerId: d.consumerId,
    webhookEndpointId: d.webhookEndpointId,
    eventId: d.eventId,
    eventType: d.eventType,
    occurredAt: new Date(d.occurredAtMs).toISOString(),
  });
  return `${head.slice(0, -1)},"data":${d.payloadJson}}`;
}
