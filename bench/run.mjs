// Runs every benchmark in bench/ one after another (they share two cores; never in parallel).
import {spawnSync} from 'node:child_process';
import {readdirSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((name) => name.endsWith('.mjs') && name !== 'run.mjs' && !name.startsWith('_'))
  .filter((name) => only.length === 0 || only.some((wanted) => name.includes(wanted)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n## ${file}`);
  const result = spawnSync(process.execPath, [here + file], {stdio: 'inherit'});
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
