import type {Registry} from 'prom-client';
import {Counter} from 'prom-client';
import {httpMetrics} from '../metrics/registry.js';
import type {DevProxy} from './types.js';

// A proxy forwards any path of the dev server: the route label holds one value, never the URL.
const ANY_ROUTE = '*';

export interface ProxyMetrics {
  /** Counts a proxy's forwarded requests and browser errors under its name; answers how to stop. */
  watch(proxyId: string, proxy: Pick<DevProxy, 'onEntry'>): () => void;
}

/**
 * Each dev proxy's requests, latency and status codes (`http_requests_total{proxy,route,method,status}`,
 * `http_request_duration_seconds{proxy,route,method}`) and the browser errors its pages report
 * (`workbench_errors_total{source="proxy:<name>",severity="error"}`), from the traffic log's entries:
 * the forwarding path itself is untouched.
 */
export function proxyMetrics(registry: Registry, errors: Counter<'source' | 'severity'>): ProxyMetrics {
  const http = httpMetrics(registry, ['proxy']);
  return {
    watch(proxyId, proxy) {
      const labels = {proxy: proxyId};
      const source = `proxy:${proxyId}`;
      return proxy.onEntry((entry) => {
        if (entry.type === 'http') http.observe({route: ANY_ROUTE, method: entry.method, status: entry.status}, entry.durationMs / 1000, labels);
        else if (entry.type === 'error') errors.inc({source, severity: 'error'});
      });
    },
  };
}
