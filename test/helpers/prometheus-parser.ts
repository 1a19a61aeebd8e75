// Debian's python3-prometheus-client reading /metrics text in a child process (the system Python:
// tests ask requirePackage('python3-prometheus-client', …) first).
import {execFileSync} from 'node:child_process';
import {SYSTEM_PYTHON} from './system-package.js';

/** A sample as Debian's python3-prometheus-client reads it. */
export interface PythonSample {
  family: string;
  type: string;
  name: string;
  labels: Record<string, string>;
  value: number | string;
}

// Reads stdin with prometheus_client's own text parser and prints every sample as JSON (NaN/Inf as strings).
const SCRIPT = `
import json, math, sys
from prometheus_client.parser import text_string_to_metric_families
out = []
for family in text_string_to_metric_families(sys.stdin.read()):
    for s in family.samples:
        v = s.value if math.isfinite(s.value) else str(s.value)
        out.append({"family": family.name, "type": family.type, "name": s.name, "labels": s.labels, "value": v})
print(json.dumps(out))
`;

/** Parses text with the Prometheus client's Python parser (throws when it refuses the text). */
export function parseWithPython(text: string): PythonSample[] {
  return JSON.parse(execFileSync(SYSTEM_PYTHON, ['-c', SCRIPT], {input: text, encoding: 'utf8'})) as PythonSample[];
}
