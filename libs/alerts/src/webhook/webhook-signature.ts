import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignatureInput {
  deliveryId: string;
  eventId: number;
  eventType: string;
  body: string;
  secretKey: string | null;
  /** Unix seconds of this attempt (Standard Webhooks' `webhook-timestamp`). */
  timestampSec: number;
}

const STANDARD_SECRET_PREFIX = 'whsec_';

/** The Standard Webhooks key: a `whsec_` secret is base64 after its prefix; any other secret is its UTF-8 bytes. */
function standardWebhooksKey(secret: string): Buffer {
  return secret.startsWith(STANDARD_SECRET_PREFIX)
    ? Buffer.from(secret.slice(STANDARD_SECRET_PREFIX.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

/**
 * The request headers of one attempt. `x-webhook-signature` is the contract's: `v1=` and the lowercase
 * hex HMAC-SHA256 of the raw body keyed with the secret's UTF-8 bytes. The Standard Webhooks trio lets a
 * receiver use a stock verifier, which also rejects replays by the timestamp.
 */
export function deliveryHeaders(s: SignatureInput): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Tidewatch-Webhooks/1.0',
    'x-event-id': String(s.eventId),
    'x-webhook-event': s.eventType,
    'x-webhook-delivery-id': s.deliveryId,
    'webhook-id': s.deliveryId,
    'webhook-timestamp': String(s.timestampSec),
  };
  if (s.secretKey) {
    headers['x-webhook-signature'] = `v1=${createHmac('sha256', Buffer.from(s.secretKey, 'utf8')).update(s.body).digest('hex')}`;
    const signed = `${s.deliveryId}.${s.timestampSec}.${s.body}`;
    headers['webhook-signature'] = `v1,${createHmac('sha256', standardWebhooksKey(s.secretKey)).update(signed).digest('base64')}`;
  }
  return headers;
}

/** Checks `x-webhook-signature` against the raw body in constant time (what a receiver does before parsing). */
export function verifyWebhookSignature(rawBody: string | Buffer, header: string | undefined, secret: string): boolean {
  if (!header?.startsWith('v1=')) return false;
  const expected = Buffer.from(createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).digest('hex'), 'utf8');
  const given = Buffer.from(header.slice(3), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
