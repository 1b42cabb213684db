export * from './exchange-facts.types.js';
export * from './exchange-facts.writer.js';
export * from './feed-checkpoint.repository.js';
export type { StoredPrice } from './market-prices.repository.js';
