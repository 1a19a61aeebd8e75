import {isAbsolute, normalize, relative, resolve} from 'node:path';

/** The file a tool's `path` names (relative to the workspace), and how rules and rows show it. */
export function resolveToolPath(cwd: string, path: string): {absolute: string; shown: string} {
  const absolute = resolve(cwd, path);
  const inside = relative(cwd, absolute);
  // Inside the workspace: relative (what rules like `ask "edit" "src/*"` are written against); outside: absolute.
  const shown = inside === '' ? '.' : inside.startsWith('..') || isAbsolute(inside) ? absolute : inside;
  return {absolute, shown};
}

/** The path as the rules see it: relative to the workspace inside it, absolute outside; normalised without one. */
export function rulePath(path: string, cwd: string | undefined): string {
  if (cwd !== undefined) return resolveToolPath(cwd, path).shown;
  return normalize(path);
}
