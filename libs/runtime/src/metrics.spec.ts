import { describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { HttpRequestMetrics } from './metrics.js';

describe('HttpRequestMetrics', () => {
  it('counts by method, route and status and sums durations into cumulative buckets, whether or not a route object is given', async () => {
    const registry = new Registry();
    const http = new HttpRequestMetrics(registry);
    const route = { path: '/a' }; // express keeps one Route object per registered method and path
    http.record('GET', '/a', 200, 0.0004, route);
    http.record('GET', '/a', 200, 0.003, route);
    http.record('GET', '/a', 429, 0.02, route);
    http.record('GET', '/a', 200, 0.2); // same series found by its labels
    http.record('POST', '/a', 201, 0.004, route); // another method under the same object: a series of its own
    http.record('GET', 'unmatched', 404, 0.001);

    const text = await registry.metrics();
    const line = (prefix: string) => text.split('\n').filter((l) => l.startsWith(prefix));
    expect(line('tidewatch_http_requests_total{')).toEqual([
      'tidewatch_http_requests_total{method="GET",route="/a",status="200"} 3',
      'tidewatch_http_requests_total{method="GET",route="/a",status="429"} 1',
      'tidewatch_http_requests_total{method="POST",route="/a",status="201"} 1',
      'tidewatch_http_requests_total{method="GET",route="unmatched",status="404"} 1',
    ]);
    expect(line('tidewatch_http_request_duration_seconds_bucket{method="GET",route="/a"')).toEqual([
      'tidewatch_http_request_duration_seconds_bucket{method="GET",route="/a",le="0.001"} 1',
      'tidewatch_http_request_duration_seconds_bucket{method="GET",route="/a",le="0.0025"} 1',
      'tidewatch_http_request_duration_seconds_bucket{method="GET",route="/a",le="0.005"} 2',
      'tidewatch_http_request_duration_seconds_bucket{method="GET",route="/a",le="0.01"} 2',
      'tidewatch_http_request_duration_seconds_bucket{method="GET",route="/a",le="0.025"} 3',
      'tidewatch_http_request_duration_seconds_bucket{method="GET",route="/a",le="0.05"} 3',
      'tidewatch_http_request_duration_seconds_bucket{method="GET",route="/a",le="0.1"} 3',
      'tidewatch_http_request_duration_seconds_bucket{method="GET",route="/a",le="0.25"} 4',
      'tidewatch_http_request_duration_seconds_bucket{method="GET",route="/a",le="0.5"} 4',
      'tidewatch_http_request_duration_seconds_bucket{method="GET",route="/a",le="1"} 4',
      'tidewatch_http_request_duration_seconds_bucket{method="GET",route="/a",le="2.5"} 4',
      'tidewatch_http_request_duration_seconds_bucket{method="GET",route="/a",le="+Inf"} 4',
    ]);
    expect(line('tidewatch_http_request_duration_seconds_count{method="GET",route="/a"}')).toEqual([
      'tidewatch_http_request_duration_seconds_count{method="GET",route="/a"} 4',
    ]);
    expect(line('tidewatch_http_request_duration_seconds_count{method="POST",route="/a"}')).toEqual([
      'tidewatch_http_request_duration_seconds_count{method="POST",route="/a"} 1',
    ]);
  });
});
