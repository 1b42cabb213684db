export * from './open-order.types.js';
export * from './snapshot-grid.js';
export * from './open-order-snapshots.repository.js';
export * from './open-orders.writer.js';
