import {chromiumPath, chromiumProblem} from '../../source/browser/chromium.js';

/**
 * Whether the tests that drive a browser can run: Chromium at /usr/bin/chromium (or WORKBENCH_CHROMIUM).
 * Missing, they are skipped loudly, or fail the file when WORKBENCH_REQUIRE_SERVICES is set (CI).
 */
export function chromiumForTests(what: string): boolean {
  const problem = chromiumProblem(chromiumPath());
  if (!problem) return true;
  const message = `${problem}: ${what} cannot run (apt-get install chromium)`;
  if (process.env.WORKBENCH_REQUIRE_SERVICES) throw new Error(`${message} — and WORKBENCH_REQUIRE_SERVICES is set`);
  console.warn(`\n!!! SKIPPED: ${message} !!!\n`);
  return false;
}
