export * from './data-source.js';
export * from './database.module.js';
export * from './secrets/signing-keys.js';
export * from './sql/index.js';
export * from './writer-steps.js';
export * from './read-versions/read-versions.repository.js';
export * from './read-versions/read-tables.js';
export * from './exports-database.module.js';
