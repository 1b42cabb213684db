export * from './hyperliquid-api.types.js';
export * from './info.client.js';
export * from './ws.client.js';
export * from './user-channel.parser.js';
export * from './activity-blocks.js';
export * from './hyperliquid-api.feed.js';
export * from './tracked-addresses.js';
