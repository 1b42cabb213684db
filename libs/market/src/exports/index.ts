export * from './exports.module.js';
export * from './exports.service.js';
export * from './export-retention.js';
export * from './export-link.signer.js';
export * from './export-store.js';
export * from './local-disk.export-store.js';
export * from './s3.export-store.js';
