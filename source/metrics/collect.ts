import {readdirSync} from 'node:fs';
import {describeError} from '../core/errors.js';
import {sendRequest} from '../net/http-client.js';
import {readServiceEntry, servicesDir} from '../services/registry.js';
import {parseText} from './parse-text.js';
import type {MetricsSnapshot, MetricsSource, SourceSnapshot} from './types.js';

// A local endpoint answers in milliseconds; one that hangs must not hold up the others.
export const READ_TIMEOUT_MS = 500;
// The text format of a busy server is tens of kilobytes; more is not a metrics endpoint.
const MAX_BYTES = 4 * 1024 * 1024;
const KINDS = new Set<MetricsSource['kind']>(['daemon', 'reader', 'gateway', 'graphql']);

export interface CollectOptions {
  /** What to read; default the daemon and every server in the service registry (metricsSources()). */
  sources?: MetricsSource[];
  timeoutMs?: number;
}

/**
 * The sources the service registry names: the daemon (it announces its metrics listener as
 * `daemon`) and the reader, gateway and GraphQL servers. An entry whose server is gone stays in
 * the list and reads as `stopped`.
 */
export function metricsSources(): MetricsSource[] {
  let names: string[];
  try {
    names = readdirSync(servicesDir())
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.slice(0, -'.json'.length));
  } catch {
    return [];
  }
  const sources: MetricsSource[] = [];
  for (const name of names.sort()) {
    if (!KINDS.has(name as MetricsSource['kind'])) continue;
    const entry = readServiceEntry(name);
    if (entry) sources.push({name, kind: name as MetricsSource['kind'], url: `${entry.url}/metrics`});
  }
  return sources;
}

/** Reads every source at once, each within the timeout; never throws: a source that does not answer is `stopped`, one that answers something else `garbage`. */
export async function collectMetrics(options: CollectOptions = {}): Promise<MetricsSnapshot> {
  const at = Date.now();
  const sources = options.sources ?? metricsSources();
  const timeoutMs = options.timeoutMs ?? READ_TIMEOUT_MS;
  return {at, sources: await Promise.all(sources.map((source) => readSource(source, timeoutMs)))};
}

async function readSource(source: MetricsSource, timeoutMs: number): Promise<SourceSnapshot> {
  let answer;
  try {
    answer = await sendRequest(new URL(source.url), {method: 'GET', headers: {accept: 'text/plain'}, timeoutMs, maxBytes: MAX_BYTES, policy: {allowPrivate: true}});
  } catch (error) {
    return {source, state: 'stopped', error: describeError(error)};
  }
  if (answer.status !== 200) return {source, state: 'garbage', error: `${source.url} answered ${answer.status}, not the metrics`};
  const type = answer.headers.get('content-type') ?? '';
  if (!type.startsWith('text/plain')) return {source, state: 'garbage', error: `${source.url} answered ${type || 'no content type'}, not the Prometheus text format`};
  try {
    return {source, state: 'up', families: parseText(answer.body.toString('utf8'))};
  } catch (error) {
    return {source, state: 'garbage', error: `${source.url} answered something other than the Prometheus text format: ${describeError(error)}`};
  }
}
