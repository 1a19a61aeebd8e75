/**
 * .NET-style configuration: a JSON file flattened to `Section:Key` paths (arrays become
 * `Section:Key:0`, `:1`…), then environment variables laid over it with `__` standing for `:`.
 * Paths compare case-insensitively, as in .NET; each entry keeps the spelling it was written in
 * so messages name the key the user wrote.
 */
export interface ConfigEntry {
  /** The path as written (`GqlService:Metadata:0`). */
  path: string;
  value: unknown;
  /** `file` or `env` (for messages). */
  from: 'file' | 'env';
}

export type ConfigTree = Map<string, ConfigEntry>;

/** The sections the GraphQL service reads; other environment variables are never looked at. */
export const SECTIONS = ['ConnectionStrings', 'GqlService', 'JwtSettings', 'Cdc'];

export function flattenJson(value: unknown, tree: ConfigTree = new Map(), prefix = ''): ConfigTree {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
    // An empty object or array still says something was written there (`"Metadata": []`).
    if (entries.length === 0 && prefix) tree.set(prefix.toLowerCase(), {path: prefix, value, from: 'file'});
    for (const [key, item] of entries) flattenJson(item, tree, prefix ? `${prefix}:${key}` : key);
    return tree;
  }
  if (prefix) tree.set(prefix.toLowerCase(), {path: prefix, value, from: 'file'});
  return tree;
}

/**
 * Lays `GqlService__Provider`-style variables over the tree. A variable replaces the file's value
 * at its path and anything the file had below it (`GqlService__Metadata__0` replaces rule 0 only;
 * `GqlService__Metadata` set to a string replaces the whole list and is then reported as not a list).
 */
export function overlayEnvironment(tree: ConfigTree, env: NodeJS.ProcessEnv): ConfigTree {
  const sections = new Set(SECTIONS.map((section) => section.toLowerCase()));
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !name.includes('__')) continue;
    const path = name.split('__').join(':');
    if (!sections.has(path.split(':')[0].toLowerCase())) continue;
    const key = path.toLowerCase();
    // An env value replaces an object or list written at that path in the file.
    for (const existing of [...tree.keys()]) if (existing.startsWith(`${key}:`)) tree.delete(existing);
    tree.set(key, {path, value, from: 'env'});
  }
  return tree;
}

/** The entries directly or indirectly below `path`. */
export function entriesUnder(tree: ConfigTree, path: string): ConfigEntry[] {
  const prefix = `${path.toLowerCase()}:`;
  return [...tree.entries()].filter(([key]) => key.startsWith(prefix)).map(([, entry]) => entry);
}
