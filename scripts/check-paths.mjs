// The paths check (`npm run check:paths`, part of `npm test`): nothing in the repository reads or
// links a path outside it. A user's clone is the whole project — no design or data folder beside it — so a
// test, a benchmark, a fixture or a document that reaches above the repository root works only on
// the machine that happened to have that folder.
//
// What it looks for, in code and Markdown under the repository's own folders:
// - a mention of the design/data folder that sits beside the work tree on the developers' machines;
// - `new URL('<relative>', import.meta.url)` and `resolve|join(__dirname, '<relative>', …)` whose
//   target lies above the root;
// - a Markdown link `](<relative>)` whose target lies above the root.
import {existsSync, readFileSync, readdirSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const FOLDERS = ['source', 'servers', 'commands', 'test', 'bench', 'fixtures', 'scripts', 'docs'];
// Data copied in whole (feed corpora, SQL scripts): their texts name other projects' paths.
const DATA = new Set(['fixtures/feeds', 'fixtures/chinook', 'fixtures/projects']);
const CODE = /\.(?:[cm]?[jt]sx?|md)$/;

const SHARED = [/(?<![\w.])\.\.\/(?:\.\.\/)*shared\b/, /['"]shared['"]\s*,\s*['"](?:data|design|spec)['"]/, /\bshared\/(?:data|design|spec)\b/];
const URL_LITERAL = /new URL\(\s*(['"`])(\.\.?\/[^'"`]*)\1\s*,\s*import\.meta\.url\s*\)/g;
const DIRNAME_LITERAL = /\b(?:resolve|join)\(\s*__dirname\s*,((?:\s*['"][^'"]*['"]\s*,?)+)\)/g;
const MARKDOWN_LINK = /\]\((\.\.\/[^)\s#]*)/g;

function* files(root, dir) {
  for (const entry of readdirSync(path.join(root, dir), {withFileTypes: true})) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.name === 'node_modules' || DATA.has(rel)) continue;
    if (entry.isDirectory()) yield* files(root, rel);
    else if (CODE.test(entry.name)) yield rel;
  }
}

const outside = (root, target) => {
  const relative = path.relative(root, target);
  return relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
};

/** Every line under `root` that reaches outside it, as `file:line: why`. */
export function findOutsidePaths(root) {
  const problems = [];
  const rootFiles = readdirSync(root).filter((name) => /\.(?:md|[cm]?js)$/.test(name) || (name.startsWith('.') && CODE.test(name)));
  const all = [...rootFiles, ...FOLDERS.filter((dir) => existsSync(path.join(root, dir))).flatMap((dir) => [...files(root, dir)])];
  for (const rel of all) {
    if (rel === 'scripts/check-paths.mjs') continue; // names the patterns it looks for
    const dir = path.dirname(path.join(root, rel));
    const lines = readFileSync(path.join(root, rel), 'utf8').split('\n');
    lines.forEach((line, at) => {
      const where = `${rel}:${at + 1}`;
      if (SHARED.some((pattern) => pattern.test(line))) problems.push(`${where}: names the shared folder beside the work tree`);
      for (const [, , target] of line.matchAll(URL_LITERAL)) {
        if (outside(root, path.resolve(dir, target))) problems.push(`${where}: new URL('${target}') lies outside the repository`);
      }
      for (const [, args] of line.matchAll(DIRNAME_LITERAL)) {
        const parts = [...args.matchAll(/['"]([^'"]*)['"]/g)].map((match) => match[1]);
        if (outside(root, path.resolve(dir, ...parts))) problems.push(`${where}: __dirname + '${parts.join('/')}' lies outside the repository`);
      }
      if (rel.endsWith('.md')) {
        for (const [, target] of line.matchAll(MARKDOWN_LINK)) {
          if (outside(root, path.resolve(dir, target))) problems.push(`${where}: links ${target}, outside the repository`);
        }
      }
    });
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = findOutsidePaths(process.cwd());
  for (const problem of problems) console.log(`  error outside-repository: ${problem}`);
  console.log(problems.length ? `paths: ${problems.length} reach(es) outside the repository.` : 'paths: everything the repository reads lies inside it.');
  process.exitCode = problems.length ? 1 : 0;
}
