export * from './test-environment.js';
export * from './reset.js';
export * from './hyperliquid-fixtures.js';
export * from './node-data-dir.factory.js';
export * from './fact-blocks.factory.js';
export * from './order-blocks.factory.js';
export * from './fill-blocks.factory.js';
export * from './fake-hyperliquid.server.js';
