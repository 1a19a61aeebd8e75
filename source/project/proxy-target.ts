import {existsSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {CONFIG_FILE, loadProjectConfig} from './config.js';

export interface DeclaredTarget {
  /** The target `.workbench.kdl` gives the proxy (`proxies { app { target "…" } }`), when it declares it. */
  target?: string;
  /** Why there is none, in a clause naming the file: `proxy "web" is not declared in /p/.workbench.kdl`. */
  missing: string;
}

/**
 * The target a project declares for proxy `id`, so `proxy start app` starts what the project
 * says without --target. A malformed file throws its own one-line error (config.ts).
 */
export async function declaredProxyTarget(cwd: string, id: string): Promise<DeclaredTarget> {
  const root = resolve(cwd);
  const file = join(root, CONFIG_FILE);
  const config = await loadProjectConfig(root);
  const target = config?.proxies.find((proxy) => proxy.id === id)?.target;
  if (target) return {target, missing: ''};
  return {missing: config || existsSync(file) ? `proxy "${id}" is not declared in ${file}` : `proxy "${id}" is not declared: there is no ${file}`};
}
