export * from './test-environment.js';
export * from './reset.js';
