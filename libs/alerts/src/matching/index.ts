export * from './alert-matcher.js';
export * from './delivery-id.js';
export { matchStateUpdate } from './event-matchers.js';
export { MAX_FILLS_PER_DELIVERY, activityFill, liquidationGroups, type LiquidationGroup } from './fill-matchers.js';
export * from './match-input.js';
export * from './rule-index.js';
