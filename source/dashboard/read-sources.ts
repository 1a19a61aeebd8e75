import {readdirSync} from 'node:fs';
import {readServiceEntry, servicesDir} from '../services/registry.js';
import type {MetricsSnapshot, MetricsSource, SourceSnapshot} from '../metrics/types.js';
import {parsePrometheusText} from './prometheus-text.js';

// A local server answers in a few ms; one that hangs must not stall the 1 s refresh.
const READ_TIMEOUT_MS = 500;
const KINDS = new Set(['reader', 'gateway', 'graphql', 'daemon']);

/** The servers the service registry lists, each as a metrics source (`<url>/metrics`). */
export function registeredSources(): MetricsSource[] {
  let names: string[];
  try {
    names = readdirSync(servicesDir()).filter((file) => file.endsWith('.json') && !file.startsWith('.'));
  } catch {
    return [];
  }
  return names.flatMap((file) => {
    const entry = readServiceEntry(file.slice(0, -'.json'.length));
    if (!entry) return [];
    const kind = (KINDS.has(entry.name) ? entry.name : 'proxy') as MetricsSource['kind'];
    return [{name: kind === 'proxy' ? `proxy:${entry.name}` : entry.name, kind, url: new URL('/metrics', entry.url).href}];
  });
}

/** One source read now: up with its families, stopped when nothing answers, garbage when the answer is not the text format. */
export async function readSource(source: MetricsSource): Promise<SourceSnapshot> {
  let text: string;
  try {
    const response = await fetch(source.url, {signal: AbortSignal.timeout(READ_TIMEOUT_MS)});
    text = await response.text();
    if (!response.ok) return {source, state: 'garbage', error: `HTTP ${response.status}`};
  } catch (error) {
    return {source, state: 'stopped', error: (error as Error).message};
  }
  try {
    return {source, state: 'up', families: parsePrometheusText(text)};
  } catch (error) {
    return {source, state: 'garbage', error: (error as Error).message};
  }
}

/** Every source read at once into one snapshot. */
export async function readSnapshot(sources: MetricsSource[] = registeredSources()): Promise<MetricsSnapshot> {
  const at = Date.now();
  return {at, sources: await Promise.all(sources.map(readSource))};
}
