import { Foundation1763700000000 } from './1763700000000-foundation.migration.js';
import { ExchangeFacts1763800000000 } from './1763800000000-exchange-facts.migration.js';

/** In the order they run; a new migration is appended here. */
export const MIGRATIONS = [Foundation1763700000000, ExchangeFacts1763800000000];
