// The Debian packages tests run — programs, and modules of the system Python — as
// test/system-packages.txt lists them (.ci/run installs that list; the README names it). A test
// whose package is missing here is skipped loudly, with the apt-get line that brings it; under
// WORKBENCH_REQUIRE_SERVICES (.ci/run) it fails instead, so CI never passes by skipping.
import {spawnSync} from 'node:child_process';
import {accessSync, constants, readFileSync, statSync} from 'node:fs';
import {chromiumPath} from '../../source/browser/chromium.js';

/** Debian's Python, where the python3-* packages put their modules (a pyenv python3 on PATH has none of them). */
export const SYSTEM_PYTHON = '/usr/bin/python3';

export interface SystemPackage {
  name: string;
  /** The program the package installs, or the module of the system Python. */
  check: {binary: string} | {python: string};
}

/** Every line of test/system-packages.txt: `<package> <path | python3:module>  # who needs it`. */
export function systemPackages(): SystemPackage[] {
  return readFileSync(new URL('../system-packages.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean)
    .map((line) => {
      const [name, check] = line.split(/\s+/) as [string, string | undefined];
      if (!check) throw new Error(`test/system-packages.txt: ${name} says nothing about how to tell it is installed`);
      return {name, check: check.startsWith('python3:') ? {python: check.slice('python3:'.length)} : {binary: check}};
    });
}

function binaryProblem(path: string): string | null {
  try {
    if (!statSync(path).isFile()) return `${path} is not a file`;
    accessSync(path, constants.X_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `no ${path}` : `${path} cannot be run (${code})`;
  }
}

function pythonProblem(module: string): string | null {
  const problem = binaryProblem(SYSTEM_PYTHON);
  if (problem) return problem;
  const child = spawnSync(SYSTEM_PYTHON, ['-c', `import ${module}`], {encoding: 'utf8', timeout: 60_000});
  return child.status === 0 ? null : `${SYSTEM_PYTHON} cannot import ${module}`;
}

/** Why the package's program or module cannot be used here, or null. */
export function packageProblem(entry: SystemPackage): string | null {
  return 'python' in entry.check ? pythonProblem(entry.check.python) : binaryProblem(entry.check.binary);
}

/** The loud skip of `what` for want of `name` (its reason returned), or a throw under WORKBENCH_REQUIRE_SERVICES. */
export function skipFor(name: string, problem: string, what: string): string {
  const message = `SKIPPED ${what}: ${name} is not installed (${problem}); apt-get install ${name}`;
  if (process.env.WORKBENCH_REQUIRE_SERVICES) throw new Error(`${message} — and WORKBENCH_REQUIRE_SERVICES is set`);
  console.warn(`\n!!! ${message} !!!\n`);
  return message;
}

const verdicts = new Map<string, string | null>();

/**
 * Why the listed package cannot be used here, or null. Chromium is the binary WORKBENCH_CHROMIUM
 * names when set, as workbench itself runs it. A package the list does not name is a mistake in the test.
 */
export function packageMissing(name: string): string | null {
  if (!verdicts.has(name)) {
    const listed = systemPackages().find((entry) => entry.name === name);
    if (!listed) throw new Error(`${name} is not in test/system-packages.txt: add it there (CI installs that list, the README names it)`);
    verdicts.set(name, packageProblem(name === 'chromium' ? {name, check: {binary: chromiumPath()}} : listed));
  }
  return verdicts.get(name)!;
}

/**
 * Null when the Debian package `name` is installed; else why not, after a loud warning that
 * `options.for` is skipped and which apt-get line brings it. Throws instead under WORKBENCH_REQUIRE_SERVICES.
 */
export function requirePackage(name: string, options: {for: string}): string | null {
  const problem = packageMissing(name);
  return problem === null ? null : skipFor(name, problem, options.for);
}
