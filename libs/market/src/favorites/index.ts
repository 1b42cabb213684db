export * from './favorites-write.module.js';
export * from './favorites.writer.js';
