import { describe, expect, it } from '@jest/globals';
import { buildDeliveryBody } from './delivery-envelope.js';

const parts = {
  deliveryId: 'a'.repeat(64),
  consumerId: 3,
  webhookEndpointId: 4,
  eventId: 5,
  eventType: 'ledger_update',
  occurredAtMs: Date.UTC(2026, 10, 25, 1, 2, 3, 45),
  // Key order, spacing and the decimal strings of the stored text must survive untouched.
  payloadJson: '{"z":1, "amount":"1.50","a":[2.0]}',
};

describe('buildDeliveryBody', () => {
  it('writes the envelope keys in order with the stored payload verbatim as data', () => {
    expect(buildDeliveryBody(parts)).toBe(
      `{"deliveryId":"${'a'.repeat(64)}","consumerId":3,"webhookEndpointId":4,"eventId":5,"eventType":"ledger_update","occurredAt":"2026-11-25T01:02:03.045Z","data":{"z":1, "amount":"1.50","a":[2.0]}}`,
    );
  });

  it('is valid JSON whose data equals the payload, and the same input gives the same bytes', () => {
    const body = buildDeliveryBody(parts);
    expect(Object.keys(JSON.parse(body))).toEqual([
      'deliveryId',
      'consumerId',
      'webhookEndpointId',
      'eventId',
      'eventType',
      'occurredAt',
      'data',
    ]);
    expect(JSON.parse(body).data).toEqual({ z: 1, amount: '1.50', a: [2] });
    expect(buildDeliveryBody({ ...parts })).toBe(body);
  });

  it('keeps milliseconds of a whole-second occurrence in occurredAt', () => {
    expect(JSON.parse(buildDeliveryBody({ ...parts, occurredAtMs: Date.UTC(2026, 0, 1) })).occurredAt).toBe('2026-01-01T00:00:00.000Z');
  });
});
