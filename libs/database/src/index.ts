export * from './entities/index.js';
export * from './data-source.js';
export * from './database.module.js';
