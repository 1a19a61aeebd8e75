/**
 * How a mapped frame names its file: relative to the project, as a person reads it in an editor.
 * Vite's maps resolve to `/src/App.tsx` on the dev server's origin, a production build's
 * `../../src/App.tsx` against `/assets/` to the same, webpack writes `webpack://app/./src/App.tsx`,
 * Turbopack `turbopack:///[project]/src/App.tsx`, and some tools absolute paths on disk — each
 * reads `src/App.tsx`. A source on another origin keeps its whole URL.
 */
export function displaySource(source: string, base: string, projectRoot?: string): string {
  const bundlerScheme = /^([a-z][\w+.-]*):\/\/[^/]*\/?/i.exec(source);
  if (bundlerScheme && !['http', 'https', 'file'].includes(bundlerScheme[1].toLowerCase())) return tidyBundlerPath(source.slice(bundlerScheme[0].length));
  const onDisk = projectRelative(source, projectRoot);
  if (onDisk !== undefined) return onDisk;
  let resolved: URL;
  try {
    resolved = new URL(source, base);
  } catch {
    return source;
  }
  if (resolved.protocol === 'file:') return projectRelative(decodePath(resolved.pathname), projectRoot) ?? decodePath(resolved.pathname);
  const origin = safeOrigin(base);
  if (origin === undefined || resolved.origin !== origin) return resolved.href;
  const path = decodePath(resolved.pathname);
  // Vite serves files outside its root under /@fs/<absolute path>.
  if (path.startsWith('/@fs/')) return projectRelative(path.slice('/@fs'.length), projectRoot) ?? path.slice('/@fs'.length);
  return path.replace(/^\/+/, '');
}

function tidyBundlerPath(path: string): string {
  return path
    .replace(/[?#].*$/, '')
    .replace(/^\[project\]\//, '')
    .replace(/^(\.\/)+/, '');
}

function projectRelative(path: string, projectRoot: string | undefined): string | undefined {
  if (!projectRoot || !path.startsWith('/')) return undefined;
  const root = projectRoot.endsWith('/') ? projectRoot : `${projectRoot}/`;
  return path.startsWith(root) ? path.slice(root.length) : undefined;
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function safeOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}
