import {isAbsolute, relative, resolve} from 'node:path';

/** The file a tool's `path` names (relative to the workspace), and how rules and rows show it. */
export function resolveToolPath(cwd: string, path: string): {absolute: string; shown: string} {
  const absolute = resolve(cwd, path);
  const inside = relative(cwd, absolute);
  // Inside the workspace: relative (what rules like `ask "edit" "src/*"` are written against); outside: absolute.
  const shown = inside === '' ? '.' : inside.startsWith('..') || isAbsolute(inside) ? absolute : inside;
  return {absolute, shown};
}
