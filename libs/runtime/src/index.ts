export * from './json-logger.js';
export * from './preflight.js';
export * from './redis.js';
export * from './redis.module.js';
export * from './metrics.js';
export * from './dependency-health.service.js';
export * from './runtime.module.js';
export * from './startup.js';
