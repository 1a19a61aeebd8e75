import type {MetricFamily, MetricSample} from '../metrics/types.js';

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/gy;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** The family a sample belongs to: its own name, or the histogram's/summary's without the suffix. */
function familyName(sample: string, families: Map<string, MetricFamily>): string {
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (sample.endsWith(suffix) && families.has(sample.slice(0, -suffix.length))) return sample.slice(0, -suffix.length);
  }
  return sample;
}

function parseLabels(text: string | undefined): Record<string, string> | undefined {
  const labels: Record<string, string> = {};
  if (!text) return labels;
  LABEL.lastIndex = 0;
  let consumed = 0;
  for (let match = LABEL.exec(text); match; match = LABEL.exec(text)) {
    labels[match[1]!] = match[2]!.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
    consumed = LABEL.lastIndex;
  }
  return consumed === text.length ? labels : undefined;
}

/**
 * The Prometheus text exposition format (0.0.4) read into families; throws on the first line that
 * is not the format, naming it, so an endpoint answering garbage is shown as such.
 */
export function parsePrometheusText(text: string): MetricFamily[] {
  const families = new Map<string, MetricFamily>();
  const family = (name: string) => {
    let found = families.get(name);
    if (!found) families.set(name, (found = {name, help: '', type: 'untyped', samples: []}));
    return found;
  };
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line) continue;
    const comment = /^#\s*(HELP|TYPE)\s+(\S+)\s*(.*)$/.exec(line);
    if (comment) {
      if (comment[1] === 'HELP') family(comment[2]!).help = comment[3]!;
      else if (TYPES.has(comment[3]!)) family(comment[2]!).type = comment[3] as MetricFamily['type'];
      else throw new Error(`line ${index + 1}: unknown metric type "${comment[3]}"`);
      continue;
    }
    if (line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    const labels = match ? parseLabels(match[2]) : undefined;
    const value = match ? Number(match[3] === '+Inf' ? Infinity : match[3] === '-Inf' ? -Infinity : match[3]) : NaN;
    if (!match || !labels || (Number.isNaN(value) && match[3] !== 'NaN')) throw new Error(`line ${index + 1} is not a metric: ${line.slice(0, 60)}`);
    const sample: MetricSample = {name: match[1]!, labels, value};
    family(familyName(sample.name, families)).samples.push(sample);
  }
  return [...families.values()];
}
