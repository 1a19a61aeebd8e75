/**
 * `.workbench.kdl` (spec 1, item 4): `scripts` and `proxies` blocks whose entries may `autostart`.
 * A file is either valid as a whole or rejected with one error naming its line, so workbench never
 * starts half-configured.
 */
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {parse, type Node, type Value} from 'kdljs';
import {WorkbenchError} from '../core/errors.js';
import {outlineKdl, type OutlineNode} from './kdl-outline.js';

export const CONFIG_FILE = '.workbench.kdl';

export interface ScriptConfig {
  name: string;
  run: string;
  autostart: boolean;
}

export interface ProxyConfig {
  id: string;
  target: string;
  autostart: boolean;
}

export interface ProjectConfig {
  scripts: ScriptConfig[];
  proxies: ProxyConfig[];
}

export type AutostartEntry = {kind: 'script'; name: string; run: string} | {kind: 'proxy'; id: string; target: string};

/** The project's config, or null when the root has no `.workbench.kdl`. */
export async function loadProjectConfig(root: string): Promise<ProjectConfig | null> {
  const file = join(root, CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new WorkbenchError('config_invalid', `${file}: cannot be read (${code ?? 'unknown error'})`, {file});
  }
  return parseProjectConfig(text, file);
}

/** What starts by itself: scripts first, since proxies usually point at a script's server. */
export function autostartEntries(config: ProjectConfig): AutostartEntry[] {
  return [
    ...config.scripts.filter(s => s.autostart).map(s => ({kind: 'script' as const, name: s.name, run: s.run})),
    ...config.proxies.filter(p => p.autostart).map(p => ({kind: 'proxy' as const, id: p.id, target: p.target})),
  ];
}

interface Kind {
  block: 'scripts' | 'proxies';
  /** The setting that must be present and holds a string. */
  required: 'run' | 'target';
}

const KINDS: Record<string, Kind> = {
  scripts: {block: 'scripts', required: 'run'},
  proxies: {block: 'proxies', required: 'target'},
};

export function parseProjectConfig(text: string, file = CONFIG_FILE): ProjectConfig {
  const outline = outlineKdl(text);
  const fail = (line: number, message: string): never => {
    throw new WorkbenchError('config_invalid', `${file}:${line}: ${message}`, {file, line});
  };
  if (outline.problem) fail(outline.problem.line, outline.problem.message);

  const parsed = parse(outline.text);
  if (parsed.errors.length > 0 || !parsed.output) {
    const {line, message} = describeSyntaxError(parsed.errors[0], text);
    fail(line, message);
  }

  const locate = new Locator(text, outline.nodes);
  const config: ProjectConfig = {scripts: [], proxies: []};
  const firstLine = {scripts: new Map<string, number>(), proxies: new Map<string, number>()};

  parsed.output!.forEach((block, b) => {
    const blockLine = locate.line([b], [block.name]);
    const kind = KINDS[block.name];
    if (!kind) fail(blockLine, `unknown block "${block.name}" (expected scripts or proxies)`);
    if (block.values.length > 0 || Object.keys(block.properties).length > 0) {
      fail(blockLine, `${block.name} takes no values, only a { } block of named entries`);
    }

    block.children.forEach((entry, e) => {
      const path = [b, e];
      const names = [block.name, entry.name];
      const entryLine = locate.line(path, names);
      const where = `${block.name}.${entry.name}`;
      if (!/^[^\s]+$/.test(entry.name)) fail(entryLine, `${block.name}: name "${entry.name}" must be one word without spaces`);
      const seen = firstLine[kind!.block].get(entry.name);
      if (seen !== undefined) fail(entryLine, `${block.name}: duplicate name "${entry.name}" (first defined on line ${seen})`);
      firstLine[kind!.block].set(entry.name, entryLine);
      if (entry.values.length > 0 || Object.keys(entry.properties).length > 0) {
        fail(entryLine, `${where}: settings go inside a block, e.g. ${entry.name} { ${kind!.required} "..." }`);
      }

      const settings = readSettings(entry, where, kind!, (s, name) => locate.line([...path, s], [...names, name]), fail);
      if (settings.value === undefined) fail(entryLine, `${where}: missing ${kind!.required} "<${kind!.required === 'run' ? 'command' : 'URL'}>"`);
      if (kind!.block === 'scripts') {
        config.scripts.push({name: entry.name, run: settings.value!, autostart: settings.autostart});
      } else {
        config.proxies.push({id: entry.name, target: settings.value!, autostart: settings.autostart});
      }
    });
  });
  return config;
}

function readSettings(
  entry: Node,
  where: string,
  kind: Kind,
  lineOf: (index: number, name: string) => number,
  fail: (line: number, message: string) => never,
): {value?: string; autostart: boolean} {
  const result: {value?: string; autostart: boolean} = {autostart: false};
  const seen = new Map<string, number>();
  entry.children.forEach((setting, s) => {
    const line = lineOf(s, setting.name);
    const name = setting.name;
    if (name !== kind.required && name !== 'autostart') {
      fail(line, `${where}: unknown setting "${name}" (expected ${kind.required}, autostart)`);
    }
    const first = seen.get(name);
    if (first !== undefined) fail(line, `${where}: ${name} is set twice (first on line ${first})`);
    seen.set(name, line);
    if (setting.children.length > 0) fail(line, `${where}.${name}: takes a value, not a block`);
    const props = Object.keys(setting.properties);
    if (props.length > 0) fail(line, `${where}.${name}: unexpected property ${props[0]}=...`);
    if (setting.values.length !== 1) {
      const expected = name === 'autostart' ? 'true or false' : 'one string';
      fail(line, `${where}.${name}: expected ${expected}, got ${setting.values.length === 0 ? 'nothing' : `${setting.values.length} values`}`);
    }
    const value = setting.values[0]!;
    if (name === 'autostart') {
      if (typeof value !== 'boolean') fail(line, `${where}.autostart: expected true or false, got ${show(value)}`);
      result.autostart = value as boolean;
      return;
    }
    if (typeof value !== 'string') fail(line, `${where}.${name}: expected a string, got ${show(value)}`);
    const text = (value as string).trim();
    if (text === '') fail(line, `${where}.${name}: must not be empty`);
    if (name === 'target' && !isHttpUrl(text)) {
      fail(line, `${where}.target: expected an http:// or https:// URL, got ${show(value)}`);
    }
    result.value = text;
  });
  return result;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function show(value: Value): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

interface RecognitionError {
  name?: string;
  message?: string;
  token?: {image?: string; startLine?: number};
  previousToken?: {image?: string; startLine?: number; endLine?: number};
}

/** kdljs (chevrotain) messages list every expected token; a person needs the line and the culprit. */
function describeSyntaxError(error: RecognitionError | undefined, text: string): {line: number; message: string} {
  const lastLine = text.split('\n').length;
  const token = error?.token;
  if (token && Number.isFinite(token.startLine) && token.image) {
    const image = token.image.length > 30 ? `${token.image.slice(0, 30)}…` : token.image;
    return {line: token.startLine!, message: `syntax error: unexpected ${JSON.stringify(image)}`};
  }
  const previous = error?.previousToken;
  const line = previous && Number.isFinite(previous.endLine ?? previous.startLine) ? (previous.endLine ?? previous.startLine)! : lastLine;
  return {line, message: 'syntax error: unexpected end of file'};
}

/** Lines for kdljs nodes, found by walking the outline with the same indexes (names double-check). */
class Locator {
  constructor(
    private readonly text: string,
    private readonly outline: OutlineNode[],
  ) {}

  line(path: number[], names: string[]): number {
    let level = this.outline;
    let found: OutlineNode | undefined;
    for (let depth = 0; depth < path.length; depth++) {
      found = level[path[depth]!];
      if (!found || (found.name !== '' && found.name !== names[depth])) return this.search(names);
      level = found.children;
    }
    return found?.line ?? 1;
  }

  // Fallback when the outline and kdljs disagree: the first line that starts with each name in turn.
  private search(names: string[]): number {
    const lines = this.text.split('\n');
    let from = 0;
    for (const name of names) {
      const at = lines.findIndex((l, n) => n >= from && l.trimStart().replace(/^"/, '').startsWith(name));
      if (at === -1) break;
      from = at;
    }
    return from + 1;
  }
}
