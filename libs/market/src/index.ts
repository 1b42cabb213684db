export * from './segments/segments.js';
export * from './segments/segments.service.js';
export * from './state-status/state-status.service.js';
export * from './market.module.js';
export * from './facts/index.js';
export * from './closed-trades/closed-trade.types.js';
export * from './closed-trades/closed-trade.builder.js';
export * from './closed-trades/closed-trades.summary.js';
