import type { Registry } from 'prom-client';
import type { ReadCache } from './read-cache.js';

/** The read cache's counts and size on the api's /metrics, read when scraped. */
export function registerReadCacheMetrics(registry: Registry, cache: ReadCache): void {
  registry.registerMetric({
    name: 'tidewatch_read_cache_requests_total',
    get: async () => ({
      name: 'tidewatch_read_cache_requests_total',
      help: 'Requests of cached routes: answered from a kept answer (hit), by joining a rendering under way (shared), or rendered',
      type: 'counter',
      aggregator: 'sum',
      values: Object.entries(cache.counts).map(([result, value]) => ({ labels: { result }, value })),
    }),
  } as never);
  registry.registerMetric({
    name: 'tidewatch_read_cache_bytes',
    get: async () => ({
      name: 'tidewatch_read_cache_bytes',
      help: 'Bytes of answers kept by the read cache',
      type: 'gauge',
      aggregator: 'sum',
      values: [{ labels: {}, value: cache.size.bytes }],
    }),
  } as never);
}
