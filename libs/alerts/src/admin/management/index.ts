export * from './alerts-management.module.js';
export * from './alert-rules.service.js';
export * from './delivery-log.repository.js';
export * from './delivery-log.service.js';
export * from './webhook-endpoints.repository.js';
export * from './webhook-endpoints.service.js';
