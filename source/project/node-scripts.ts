/** Node projects: package manager from `packageManager` or lockfiles, scripts from package.json. */
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {ProjectFiles} from './project-files.js';
import type {DetectedScript} from './types.js';

export interface NodeDetection {
  packageManager: string;
  scripts: DetectedScript[];
  warnings: string[];
}

const MANAGERS = ['npm', 'pnpm', 'yarn', 'bun'];

// Checked in this order: a repo holding two lockfiles most likely moved to the rarer manager.
const LOCKFILES: [string, string][] = [
  ['bun.lockb', 'bun'],
  ['bun.lock', 'bun'],
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];

export async function detectNode(files: ProjectFiles): Promise<NodeDetection | null> {
  if (!(await files.has('package.json'))) return null;
  const warnings: string[] = [];
  let manifest: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(await readFile(join(files.root, 'package.json'), 'utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) manifest = parsed as Record<string, unknown>;
    else warnings.push('package.json: not a JSON object; its scripts are ignored');
  } catch (error) {
    const reason = error instanceof SyntaxError ? `not valid JSON (${error.message})` : `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    warnings.push(`package.json: ${reason}; its scripts are ignored`);
  }

  const packageManager = fromField(manifest?.packageManager) ?? (await fromLockfile(files)) ?? 'npm';
  const scripts: DetectedScript[] = [];
  const declared = manifest?.scripts;
  if (declared !== undefined && (typeof declared !== 'object' || declared === null || Array.isArray(declared))) {
    warnings.push('package.json: "scripts" is not an object; ignored');
  } else if (declared) {
    for (const [name, body] of Object.entries(declared)) {
      if (typeof body !== 'string') continue;
      scripts.push({name, command: `${packageManager} run ${name}`, source: 'package.json'});
    }
  }
  return {packageManager, scripts, warnings};
}

// Corepack's field: "pnpm@9.12.0" or "yarn@4.5.0+sha512...".
function fromField(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.split('@')[0]!.trim();
  return MANAGERS.includes(name) ? name : undefined;
}

async function fromLockfile(files: ProjectFiles): Promise<string | undefined> {
  for (const [file, manager] of LOCKFILES) if (await files.has(file)) return manager;
  return undefined;
}
