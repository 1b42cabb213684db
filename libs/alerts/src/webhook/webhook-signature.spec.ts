import { describe, expect, it } from '@jest/globals';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { deliveryHeaders, verifyWebhookSignature } from './webhook-signature.js';

const body =
  '{"deliveryId":"d1","consumerId":1,"webhookEndpointId":2,"eventId":3,"eventType":"liquidation","occurredAt":"2026-11-25T00:00:00.000Z","data":{"px":"101.5","note":"é"}}';
const input = { deliveryId: 'd1', eventId: 3, eventType: 'liquidation', body, secretKey: 'tw-secret-ünïcode', timestampSec: 1_790_000_000 };

/**
 * The Standard Webhooks verification, written from its specification (the `standardwebhooks` package is
 * not a dependency): the secret is base64 after an optional `whsec_` prefix, the signed content is
 * `id.timestamp.body`, the header is a space-separated list of `v1,<base64>`, a timestamp more than 5
 * minutes off is refused, and signatures are compared in constant time.
 */
function standardWebhooksVerify(payload: string, headers: Record<string, string>, secret: string, nowSec: number): boolean {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const timestamp = Number(headers['webhook-timestamp']);
  if (!Number.isInteger(timestamp) || Math.abs(nowSec - timestamp) > 5 * 60) return false;
  const expected = Buffer.from(createHmac('sha256', key).update(`${headers['webhook-id']}.${timestamp}.${payload}`).digest('base64'));
  return (headers['webhook-signature'] ?? '').split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe('deliveryHeaders', () => {
  it('sends the contract headers and the Standard Webhooks trio', () => {
    const headers = deliveryHeaders(input);
    expect(Object.keys(headers).sort()).toEqual([
      'content-type',
      'user-agent',
      'webhook-id',
      'webhook-signature',
      'webhook-timestamp',
      'x-event-id',
      'x-webhook-delivery-id',
      'x-webhook-event',
      'x-webhook-signature',
    ]);
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Tidewatch-Webhooks/1.0',
      'x-event-id': '3',
      'x-webhook-event': 'liquidation',
      'x-webhook-delivery-id': 'd1',
      'webhook-id': 'd1',
      'webhook-timestamp': '1790000000',
    });
  });

  it('signs the raw body: v1= and the lowercase hex HMAC-SHA256 keyed with the UTF-8 bytes of the secret', () => {
    const expected = createHmac('sha256', Buffer.from('tw-secret-ünïcode', 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex');
    expect(deliveryHeaders(input)['x-webhook-signature']).toBe(`v1=${expected}`);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs id.timestamp.body in base64 for Standard Webhooks, keyed with the UTF-8 bytes of a plain secret', () => {
    const expected = createHmac('sha256', Buffer.from('tw-secret-ünïcode', 'utf8')).update(`d1.1790000000.${body}`).digest('base64');
    expect(deliveryHeaders(input)['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('keys Standard Webhooks with the base64-decoded part of a whsec_ secret, and the contract signature with the secret text', () => {
    const key = Buffer.from('0123456789abcdef0123456789abcdef');
    const secret = `whsec_${key.toString('base64')}`;
    const headers = deliveryHeaders({ ...input, secretKey: secret });
    expect(headers['webhook-signature']).toBe(`v1,${createHmac('sha256', key).update(`d1.1790000000.${body}`).digest('base64')}`);
    expect(headers['x-webhook-signature']).toBe(`v1=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')}`);
  });

  it('reproduces the worked example of the Standard Webhooks specification', () => {
    const headers = deliveryHeaders({
      deliveryId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      eventId: 1,
      eventType: 'liquidation',
      body: '{"test": 2432232314}',
      secretKey: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      timestampSec: 1614265330,
    });
    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('passes a verifier built from the Standard Webhooks specification, and fails it when anything changes', () => {
    const whsec = `whsec_${Buffer.from('a-32-byte-key-for-the-receiver!!').toString('base64')}`;
    const headers = deliveryHeaders({ ...input, secretKey: whsec });
    expect(standardWebhooksVerify(body, headers, whsec, 1_790_000_100)).toBe(true);
    expect(standardWebhooksVerify(body.replace('101.5', '101.6'), headers, whsec, 1_790_000_100)).toBe(false);
    expect(standardWebhooksVerify(body, { ...headers, 'webhook-timestamp': '1790000001' }, whsec, 1_790_000_100)).toBe(false);
    expect(standardWebhooksVerify(body, { ...headers, 'webhook-id': 'd2' }, whsec, 1_790_000_100)).toBe(false);
    expect(standardWebhooksVerify(body, headers, whsec, 1_790_000_000 + 301)).toBe(false);
    // A plain secret works with a stock verifier once given as base64 of its UTF-8 bytes (what docs/webhooks.md says).
    const plain = deliveryHeaders(input);
    expect(standardWebhooksVerify(body, plain, Buffer.from('tw-secret-ünïcode', 'utf8').toString('base64'), 1_790_000_000)).toBe(true);
  });

  it('sends no signature headers without a secret, but still the id and timestamp', () => {
    const headers = deliveryHeaders({ ...input, secretKey: null });
    expect(headers['x-webhook-signature']).toBeUndefined();
    expect(headers['webhook-signature']).toBeUndefined();
    expect(headers['webhook-id']).toBe('d1');
    expect(headers['webhook-timestamp']).toBe('1790000000');
  });
});

describe('verifyWebhookSignature', () => {
  const header = deliveryHeaders(input)['x-webhook-signature']!;
  it('accepts the exact body with the right secret, as text or bytes', () => {
    expect(verifyWebhookSignature(body, header, 'tw-secret-ünïcode')).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body, 'utf8'), header, 'tw-secret-ünïcode')).toBe(true);
  });
  it('refuses a changed body, another secret, a missing, truncated or unversioned header', () => {
    expect(verifyWebhookSignature(`${body} `, header, 'tw-secret-ünïcode')).toBe(false);
    expect(verifyWebhookSignature(body, header, 'tw-secret-unicode')).toBe(false);
    expect(verifyWebhookSignature(body, undefined, 'tw-secret-ünïcode')).toBe(false);
    expect(verifyWebhookSignature(body, header.slice(0, -2), 'tw-secret-ünïcode')).toBe(false);
    expect(verifyWebhookSignature(body, header.slice(3), 'tw-secret-ünïcode')).toBe(false);
    expect(verifyWebhookSignature(body, header.toUpperCase().replace('V1=', 'v1='), 'tw-secret-ünïcode')).toBe(false);
  });
});
