/**
 * A process belongs to its project: the daemon knows it as `<projectRoot>#<id>`, so two projects
 * may each run `web`. Faces show the short id inside the project. A short id never holds `#`
 * (the supervisor's id pattern), so the last `#` of a key splits it, whatever the root's path holds.
 */
export interface ProcessKey {
  /** The project root, realpath'd ('' for a caller that named none). */
  project: string;
  /** The id as the project sees it (`web`). */
  id: string;
}

const SEPARATOR = '#';

/** The nameless project's (a caller that named none) keys are its bare ids. */
export function makeKey(project: string, id: string): string {
  return project ? `${project}${SEPARATOR}${id}` : id;
}

export function parseKey(key: string): ProcessKey {
  const at = key.lastIndexOf(SEPARATOR);
  return at < 0 ? {project: '', id: key} : {project: key.slice(0, at), id: key.slice(at + 1)};
}

/** Whether an id names its project itself (`/path/to/project#web`), as `proc list --all` shows it. */
export function isQualified(id: string): boolean {
  return id.includes(SEPARATOR);
}

export function shortId(key: string): string {
  return parseKey(key).id;
}
