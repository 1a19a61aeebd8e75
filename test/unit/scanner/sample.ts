import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const samples = path.join(path.dirname(fileURLToPath(import.meta.url)), 'samples');

/** A recorded or hand-written tool output from samples/, as bytes. */
export function sampleBytes(name: string): Buffer {
  return fs.readFileSync(path.join(samples, name));
}

export function sample(name: string): string {
  return sampleBytes(name).toString('utf8');
}

export function sampleNames(): string[] {
  return fs
    .readdirSync(samples)
    .filter((name) => name.endsWith('.txt'))
    .sort();
}
