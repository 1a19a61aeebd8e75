import type {MetricFamily, MetricSample} from './types.js';

/**
 * Reads the Prometheus text format (version 0.0.4) into families: `# HELP` and `# TYPE` lines,
 * other comments skipped, samples `name{label="value",…} value [timestamp]` with the escapes
 * `\\`, `\"` and `\n` in label values (`\\` and `\n` in help), and the values `+Inf`, `-Inf`, `NaN` (any case).
 * Samples join the family they belong to (`x_bucket`, `x_sum`, `x_count` of histogram `x`); a
 * sample without a `# TYPE` is a family of its own, untyped. Anything else is a TextFormatError
 * naming the line: what answered is not a metrics endpoint.
 */
export class TextFormatError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

const TYPES = new Set<MetricFamily['type']>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const SUFFIXES: Record<MetricFamily['type'], string[]> = {
  counter: ['', '_total'],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

export function parseText(text: string): MetricFamily[] {
  const families = new Map<string, MetricFamily>();
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = raw.replace(/\r$/, '').trim();
    const number = index + 1;
    if (line === '') return;
    if (line.startsWith('#')) return readComment(line, number, families);
    const sample = readSample(line, number);
    familyOf(sample.name, families).samples.push(sample);
  });
  return [...families.values()];
}

function readComment(line: string, number: number, families: Map<string, MetricFamily>): void {
  const match = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(line);
  if (!match) return;
  const [, keyword, name, rest = ''] = match;
  if (!NAME.test(name!) || NAME.exec(name!)![0] !== name) throw new TextFormatError(number, `"${name}" is no metric name`);
  const family = families.get(name!) ?? {name: name!, help: '', type: 'untyped' as const, samples: []};
  families.set(name!, family);
  if (keyword === 'HELP') {
    family.help = rest.replace(/\\(\\|n)/g, (_all, escaped: string) => (escaped === 'n' ? '\n' : '\\'));
    return;
  }
  const type = rest.trim() as MetricFamily['type'];
  if (!TYPES.has(type)) throw new TextFormatError(number, `"${rest.trim()}" is no metric type`);
  if (family.samples.length > 0) throw new TextFormatError(number, `TYPE of ${name} after its samples`);
  family.type = type;
}

// The family a sample belongs to: a typed family whose name plus one of its suffixes is the sample's name.
function familyOf(sampleName: string, families: Map<string, MetricFamily>): MetricFamily {
  for (const suffix of ['', '_bucket', '_sum', '_count', '_total']) {
    if (!sampleName.endsWith(suffix)) continue;
    const family = families.get(sampleName.slice(0, sampleName.length - suffix.length));
    if (family && SUFFIXES[family.type].includes(suffix)) return family;
  }
  const family: MetricFamily = {name: sampleName, help: '', type: 'untyped', samples: []};
  families.set(sampleName, family);
  return family;
}

function readSample(line: string, number: number): MetricSample {
  const name = NAME.exec(line)?.[0];
  if (!name) throw new TextFormatError(number, `expected a metric name, found ${JSON.stringify(line.slice(0, 40))}`);
  let at = name.length;
  const labels: Record<string, string> = {};
  if (line[at] === '{') {
    at = readLabels(line, at + 1, labels, number);
  }
  const fields = line.slice(at).trim().split(/\s+/);
  if (fields.length < 1 || fields.length > 2 || fields[0] === '') throw new TextFormatError(number, `expected a value after ${name}`);
  const value = readValue(fields[0]!);
  if (value === undefined) throw new TextFormatError(number, `"${fields[0]}" is no number`);
  if (fields[1] !== undefined && !/^-?\d+$/.test(fields[1])) throw new TextFormatError(number, `"${fields[1]}" is no timestamp`);
  return {name, labels, value};
}

// Reads `name="value",…}` from `at`; answers the index after the closing brace.
function readLabels(line: string, at: number, labels: Record<string, string>, number: number): number {
  for (;;) {
    while (line[at] === ' ') at++;
    if (line[at] === '}') return at + 1;
    const labelName = LABEL_NAME.exec(line.slice(at))?.[0];
    if (!labelName) throw new TextFormatError(number, 'expected a label name');
    at += labelName.length;
    while (line[at] === ' ') at++;
    if (line[at] !== '=' || line[at + 1] !== '"') throw new TextFormatError(number, `expected ="…" after label ${labelName}`);
    at += 2;
    let value = '';
    for (;;) {
      const char = line[at];
      if (char === undefined) throw new TextFormatError(number, `label ${labelName}: unterminated value`);
      if (char === '"') break;
      if (char === '\\') {
        const escaped = line[at + 1];
        if (escaped === 'n') value += '\n';
        else if (escaped === '\\' || escaped === '"') value += escaped;
        else throw new TextFormatError(number, `label ${labelName}: unknown escape \\${escaped ?? ''}`);
        at += 2;
        continue;
      }
      value += char;
      at++;
    }
    labels[labelName] = value;
    at++;
    while (line[at] === ' ') at++;
    if (line[at] === ',') at++;
    else if (line[at] !== '}') throw new TextFormatError(number, `expected , or } after label ${labelName}`);
  }
}

// Go's ParseFloat, which Prometheus uses, takes Inf and NaN in any case (prom-client writes `Nan`).
function readValue(text: string): number | undefined {
  if (/^\+?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return undefined;
  return Number(text);
}
