export * from './builder-timeframes.js';
export * from './builder-activity.types.js';
export * from './builder-activity.repository.js';
export * from './exchange-volume.repository.js';
