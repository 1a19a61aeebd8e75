// The import-boundary check (`npm run check:imports`): dependency-cruiser validates each import
// against .dependency-cruiser.cjs (logic never imports a face, servers never import commands or
// another server), then the module graph is folded into areas and any cycle between areas is
// reported with the imports that close it.
//
// Area cycles are found here rather than by a dependency-cruiser rule: its folder-scope `circular`
// links a folder to the exact folder of each import, so source/a/x.ts → source/b/one/y.ts and
// source/b/two/z.ts → source/a/w.ts form no folder cycle although the areas a and b import each other.
import {existsSync} from 'node:fs';
import {cruise, format} from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

// Run from the repository root (or a test's copy of one).
const roots = ['source', 'commands', 'servers'].filter((root) => existsSync(root));

/** source/<area>, commands or servers/<name>; undefined for files outside them (source/cli.tsx is the CLI's). */
function areaOf(path) {
  if (path === 'source/cli.tsx') return 'source/cli';
  const match = /^(source\/[^/]+|servers\/[^/]+)\//.exec(path) ?? /^(commands)\//.exec(path);
  return match?.[1];
}

/** Strongly connected groups of more than one area (Tarjan), each with its areas sorted. */
function areaCycles(edges) {
  const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((targets) => [...targets.keys()])])].sort();
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (node) => {
    index.set(node, index.size);
    low.set(node, index.get(node));
    stack.push(node);
    onStack.add(node);
    for (const next of [...(edges.get(node)?.keys() ?? [])].sort()) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return groups;
}

/** Each import between two areas of a group closes a shortest cycle; those cycles, each once, shortest first. */
function shortestCycles(group, edges) {
  const members = new Set(group);
  const cycles = new Map();
  for (const from of group) {
    for (const to of edges.get(from)?.keys() ?? []) {
      if (!members.has(to)) continue;
      // Breadth-first from `to` back to `from`, inside the group.
      const previous = new Map([[to, undefined]]);
      const queue = [to];
      while (queue.length > 0 && !previous.has(from)) {
        const node = queue.shift();
        for (const next of [...(edges.get(node)?.keys() ?? [])].sort()) {
          if (!members.has(next) || previous.has(next)) continue;
          previous.set(next, node);
          queue.push(next);
        }
      }
      const path = [];
      for (let node = from; node !== undefined; node = previous.get(node)) path.unshift(node);
      // path runs to → … → from; the cycle is from → to → … , started at its smallest area so each is kept once.
      const cycle = [from, ...path.slice(0, -1)];
      const start = cycle.indexOf([...cycle].sort()[0]);
      const key = [...cycle.slice(start), ...cycle.slice(0, start)];
      cycles.set(key.join(' '), key);
    }
  }
  return [...cycles.values()].sort((a, b) => a.length - b.length || a.join().localeCompare(b.join()));
}

const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
const {output: result} = await cruise(roots, {...options, validate: true}, {}, {tsConfig: extractTSConfig('tsconfig.json')});

const rules = await format(result, {outputType: 'err'});
let failed = rules.exitCode !== 0;
if (failed) process.stdout.write(rules.output);

// area → area → the imports between them, as `from → to (kinds)`.
const edges = new Map();
for (const module of result.modules) {
  const from = areaOf(module.source);
  if (!from) continue;
  for (const dependency of module.dependencies) {
    const to = areaOf(dependency.resolved);
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const targets = edges.get(from);
    if (!targets.has(to)) targets.set(to, []);
    const kinds = dependency.dependencyTypes.filter((kind) => kind === 'type-only' || kind === 'dynamic-import');
    targets.get(to).push(`${module.source} → ${dependency.resolved}${kinds.length ? ` (${kinds.join(', ')})` : ''}`);
  }
}

const cycles = areaCycles(edges).flatMap((group) => shortestCycles(group, edges));
for (const cycle of cycles) {
  console.log(`  error area-cycle: ${[...cycle, cycle[0]].join(' → ')}`);
  cycle.forEach((from, at) => {
    const imports = edges.get(from).get(cycle[(at + 1) % cycle.length]);
    console.log(`      ${imports[0]}${imports.length > 1 ? ` (and ${imports.length - 1} more)` : ''}`);
  });
}
if (cycles.length > 0) failed = true;

const areas = new Set([...edges.keys(), ...[...edges.values()].flatMap((targets) => [...targets.keys()])]);
console.log(
  failed
    ? `imports: ${cycles.length} area cycle(s) above, ${result.summary.error} rule violation(s) (${result.summary.totalCruised} modules).`
    : `imports: boundaries hold, no cycle between ${areas.size} areas (${result.summary.totalCruised} modules, ${result.summary.totalDependenciesCruised} imports).`,
);
process.exitCode = failed ? 1 : 0;
