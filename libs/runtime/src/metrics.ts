import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * One Prometheus registry per process (not prom-client's global one, so several apps can run in
 * one process, as `npm start` and the tests do) with the process's default metrics.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'tidewatch_http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'tidewatch_http_request_duration_seconds',
    help: 'Time from request arrival to the end of the response',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  constructor(app: string) {
    this.registry.setDefaultLabels({ app });
    collectDefaultMetrics({ register: this.registry, prefix: 'tidewatch_' });
  }
}
