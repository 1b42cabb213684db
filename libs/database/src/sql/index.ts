export * from './sql-runner.js';
export * from './sql-time.js';
export * from './copy-text.js';
export * from './bulk-insert.js';
export * from './keyset-cursor.js';
export * from './list-query.js';
export * from './json-text.js';
export * from './json-page.js';
