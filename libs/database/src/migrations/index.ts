import { Foundation1763700000000 } from './1763700000000-foundation.migration.js';

/** In the order they run; a new migration is appended here. */
export const MIGRATIONS = [Foundation1763700000000];
