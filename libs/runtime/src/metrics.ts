import { collectDefaultMetrics, Registry } from 'prom-client';

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

interface RouteSeries {
  labels: { method: string; route: string };
  /** Non-cumulative counts per bucket, +Inf last. */
  buckets: number[];
  sum: number;
  count: number;
  statuses: Map<number, StatusCount>;
}

interface StatusCount {
  labels: { method: string; route: string; status: string };
  value: number;
}

type PromValue = { labels: Record<string, string | number>; value: number; metricName?: string };

/**
 * HTTP request counts and durations, kept as plain numbers and turned into Prometheus series only
 * when scraped. prom-client's own Counter/Histogram hash their label set on every observation,
 * which is measurable on a path that runs thousands of times a second.
 */
export class HttpRequestMetrics {
  private readonly durations = new Map<string, RouteSeries>();
  private readonly byRoute = new WeakMap<object, RouteSeries>();

  constructor(registry: Registry) {
    registry.registerMetric({
      name: 'tidewatch_http_requests_total',
      get: async () => ({
        name: 'tidewatch_http_requests_total',
        help: 'HTTP requests answered, by method, route and status',
        type: 'counter',
        aggregator: 'sum',
        values: [...this.durations.values()].flatMap((series) =>
          [...series.statuses.values()].map(({ labels, value }) => ({ labels, value })),
        ),
      }),
    } as never);
    registry.registerMetric({
      name: 'tidewatch_http_request_duration_seconds',
      get: async () => ({
        name: 'tidewatch_http_request_duration_seconds',
        help: 'Time from request arrival to the end of the response',
        type: 'histogram',
        aggregator: 'sum',
        values: [...this.durations.values()].flatMap((series) => this.histogramValues(series)),
      }),
    } as never);
  }

  /**
   * Counts one answered request. `routeKey` is any object that stands for the route and lives as
   * long as it (express's Route): the series are found through it without building a label string
   * per request.
   */
  record(method: string, route: string, status: number, seconds: number, routeKey?: object): void {
    const series = this.seriesOf(method, route, routeKey);
    let counted = series.statuses.get(status);
    if (!counted) {
      counted = { labels: { method, route, status: String(status) }, value: 0 };
      series.statuses.set(status, counted);
    }
    counted.value += 1;
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]) bucket++;
    series.buckets[bucket] += 1;
    series.sum += seconds;
    series.count += 1;
  }

  private seriesOf(method: string, route: string, routeKey: object | undefined): RouteSeries {
    const cached = routeKey && this.byRoute.get(routeKey);
    if (cached && cached.labels.method === method) return cached;
    const name = `${method} ${route}`;
    let series = this.durations.get(name);
    if (!series) {
      series = {
        labels: { method, route },
        buckets: new Array(DURATION_BUCKETS.length + 1).fill(0),
        sum: 0,
        count: 0,
        statuses: new Map(),
      };
      this.durations.set(name, series);
    }
    if (routeKey) this.byRoute.set(routeKey, series);
    return series;
  }

  private histogramValues(series: RouteSeries): PromValue[] {
    const name = 'tidewatch_http_request_duration_seconds';
    let cumulative = 0;
    const values: PromValue[] = series.buckets.map((count, i) => {
      cumulative += count;
      return {
        metricName: `${name}_bucket`,
        labels: { ...series.labels, le: i < DURATION_BUCKETS.length ? DURATION_BUCKETS[i] : '+Inf' },
        value: cumulative,
      };
    });
    values.push({ metricName: `${name}_sum`, labels: series.labels, value: series.sum });
    values.push({ metricName: `${name}_count`, labels: series.labels, value: series.count });
    return values;
  }
}

/**
 * One Prometheus registry per process (not prom-client's global one, so several apps can run in
 * one process, as `npm start` and the tests do) with the process's default metrics.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly http: HttpRequestMetrics;

  constructor(app: string) {
    this.registry.setDefaultLabels({ app });
    collectDefaultMetrics({ register: this.registry, prefix: 'tidewatch_' });
    this.http = new HttpRequestMetrics(this.registry);
  }
}
