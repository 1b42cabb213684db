export * from './delivery-envelope.js';
export * from './ssrf-guard.js';
export * from './test-delivery.module.js';
export * from './test-delivery.service.js';
export * from './webhook-sender.js';
export * from './webhook-signature.js';
export * from './webhook-response.js';
export * from './signed-delivery.js';
