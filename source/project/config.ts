/**
 * `.workbench.kdl` (spec 1, item 4): `scripts` and `proxies` blocks whose entries may `autostart`,
 * the feed gateway's `gateway` block (issue 9; gateway-block.ts) and the agent's permission rules,
 * the `agent` block (issue 11; agent-block.ts).
 * A file is either valid as a whole or rejected with one error naming its line, so workbench never
 * starts half-configured.
 */
import {readFile} from 'node:fs/promises';
import {basename, join} from 'node:path';
import {getLocation, parse, InvalidKdlError, type Document, type Node} from '@bgotink/kdl';
import {WorkbenchError} from '../core/errors.js';
import {isHttpUrl, show} from './config-values.js';
import {readAgentBlock, type AgentEndpointSettings, type AgentRuleEntry} from './agent-block.js';
import {readGatewayBlock, type GatewayBlock} from './gateway-block.js';

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
  /** Present when the file has a `gateway` block (source/gateway/config applies the gateway's rules to it). */
  gateway?: GatewayBlock;
  /** The `agent` blocks' permission rules in file order; absent when the file has none. */
  agent?: AgentRuleEntry[];
  /** The `agent` blocks' endpoint settings (api, base-url, model); absent when the file has none. */
  agentEndpoint?: AgentEndpointSettings;
}

export type {GatewayBlock, GatewayFeedEntry} from './gateway-block.js';
export type {AgentEndpointSettings, AgentRuleEntry} from './agent-block.js';

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
    ...config.scripts.filter((s) => s.autostart).map((s) => ({kind: 'script' as const, name: s.name, run: s.run})),
    ...config.proxies.filter((p) => p.autostart).map((p) => ({kind: 'proxy' as const, id: p.id, target: p.target})),
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
  const fail = (line: number, message: string): never => {
    throw new WorkbenchError('config_invalid', `${file}:${line}: ${message}`, {file, line});
  };
  const document = parseKdl(text, fail);
  const lineOf = (node: Node): number => getLocation(node)?.start.line ?? 1;
  const config: ProjectConfig = {scripts: [], proxies: []};
  const firstLine = {scripts: new Map<string, number>(), proxies: new Map<string, number>()};

  for (const block of document.nodes) {
    const blockLine = lineOf(block);
    const blockName = block.getName();
    if (blockName === 'gateway') {
      config.gateway ??= {line: blockLine, feeds: []};
      readGatewayBlock(block, config.gateway, lineOf, fail);
      continue;
    }
    if (blockName === 'agent') {
      config.agent ??= [];
      config.agentEndpoint ??= {};
      readAgentBlock(block, config.agent, lineOf, fail, basename(file), config.agentEndpoint);
      continue;
    }
    const kind = KINDS[blockName];
    if (!kind) fail(blockLine, `unknown block "${blockName}" (expected scripts, proxies, gateway or agent)`);
    if (block.hasArguments() || block.hasProperties()) {
      fail(blockLine, `${blockName} takes no values, only a { } block of named entries`);
    }

    for (const entry of block.children?.nodes ?? []) {
      const entryLine = lineOf(entry);
      const name = entry.getName();
      const where = `${blockName}.${name}`;
      if (!/^[^\s]+$/.test(name)) fail(entryLine, `${blockName}: name "${name}" must be one word without spaces`);
      const seen = firstLine[kind!.block].get(name);
      if (seen !== undefined) fail(entryLine, `${blockName}: duplicate name "${name}" (first defined on line ${seen})`);
      firstLine[kind!.block].set(name, entryLine);
      if (entry.hasArguments() || entry.hasProperties()) {
        fail(entryLine, `${where}: settings go inside a block, e.g. ${name} { ${kind!.required} "..." }`);
      }

      const settings = readSettings(entry, where, kind!, lineOf, fail);
      if (settings.value === undefined) fail(entryLine, `${where}: missing ${kind!.required} "<${kind!.required === 'run' ? 'command' : 'URL'}>"`);
      if (kind!.block === 'scripts') {
        config.scripts.push({name, run: settings.value!, autostart: settings.autostart});
      } else {
        config.proxies.push({id: name, target: settings.value!, autostart: settings.autostart});
      }
    }
  }
  return config;
}

// The parser names a KDL 1 keyword (`autostart true`, as the spec writes it) and where it ends.
const KDL1_KEYWORD = /^Invalid keyword "(true|false|null)"/;
// Errors at the end of the input: the construct left open started earlier.
const LEFT_OPEN: Array<{error: RegExp; message: string}> = [
  {error: /^Unexpected EOF inside (?:multiline )?string/, message: 'string is not closed (missing " before the end of the line)'},
  {error: /^Unexpected EOF in multiline comment/, message: 'comment /* is never closed (missing */)'},
  {error: /^Invalid node children at end of input/, message: 'block { opened here is never closed (missing })'},
];

/**
 * KDL 2 as @bgotink/kdl reads it, with node locations. KDL 1's bare `true`, `false` and `null`
 * are taken as KDL 2's `#true`, `#false`, `#null`: exactly the tokens the parser refuses as
 * keywords are rewritten, so words inside strings and comments are never touched.
 */
function parseKdl(text: string, fail: (line: number, message: string) => never): Document {
  let source = text;
  for (let attempt = 0; ; attempt++) {
    let errors: InvalidKdlError[];
    try {
      return parse(source, {as: 'document', storeLocations: true});
    } catch (error) {
      if (!(error instanceof InvalidKdlError)) throw error;
      errors = [...error.flat()];
    }
    const keywords = errors.filter((error) => KDL1_KEYWORD.test(error.message) && error.start);
    // Rewriting adds characters, never lines: the locations of the rewritten source are the file's.
    if (keywords.length === errors.length && attempt < 3) {
      for (const error of keywords.sort((a, b) => b.start!.offset - a.start!.offset)) {
        const at = error.start!.offset - KDL1_KEYWORD.exec(error.message)![1]!.length;
        source = `${source.slice(0, at)}#${source.slice(at)}`;
      }
      continue;
    }
    const first = errors.find((error) => !KDL1_KEYWORD.test(error.message)) ?? errors[0]!;
    return fail(...describeKdlError(first, source));
  }
}

/** One line and a message a person can act on; for something left open, the line that opened it. */
function describeKdlError(error: InvalidKdlError, source: string): [number, string] {
  const lines = source.split('\n').length;
  const line = Math.min(Math.max(error.start?.line ?? error.token?.start.line ?? lines, 1), lines);
  const open = LEFT_OPEN.find((kind) => kind.error.test(error.message));
  if (open) return [openedOn(source, open.error, line), open.message];
  const token = error.token?.text.trim();
  if (token === '}') return [line, 'unexpected } (no block is open here)'];
  if (token) return [line, `syntax error: unexpected ${JSON.stringify(token.length > 30 ? `${token.slice(0, 30)}…` : token)}`];
  return [line, `syntax error: ${error.message.replace(/ at \d+:\d+$/, '')}`];
}

/**
 * The line where a construct left open to the end began: the line after the last prefix of the
 * file (whole lines) that the parser does not leave open the same way. A few parses of a small
 * file, on the error path only.
 */
function openedOn(source: string, kind: RegExp, fallback: number): number {
  const lines = source.split('\n');
  if (lines.length > 2000) return fallback;
  for (let end = lines.length - 1; end >= 1; end--) {
    if (!leftOpen(lines.slice(0, end).join('\n'), kind)) return end + 1;
  }
  return 1;
}

function leftOpen(prefix: string, kind: RegExp): boolean {
  try {
    parse(prefix, {as: 'document'});
    return false;
  } catch (error) {
    return error instanceof InvalidKdlError && [...error.flat()].some((detail) => kind.test(detail.message));
  }
}

function readSettings(
  entry: Node,
  where: string,
  kind: Kind,
  lineOf: (node: Node) => number,
  fail: (line: number, message: string) => never,
): {value?: string; autostart: boolean} {
  const result: {value?: string; autostart: boolean} = {autostart: false};
  const seen = new Map<string, number>();
  for (const setting of entry.children?.nodes ?? []) {
    const line = lineOf(setting);
    const name = setting.getName();
    if (name !== kind.required && name !== 'autostart') {
      fail(line, `${where}: unknown setting "${name}" (expected ${kind.required}, autostart)`);
    }
    const first = seen.get(name);
    if (first !== undefined) fail(line, `${where}: ${name} is set twice (first on line ${first})`);
    seen.set(name, line);
    if ((setting.children?.nodes.length ?? 0) > 0) fail(line, `${where}.${name}: takes a value, not a block`);
    const props = [...setting.getProperties().keys()];
    if (props.length > 0) fail(line, `${where}.${name}: unexpected property ${props[0]}=...`);
    const values = setting.getArguments();
    if (values.length !== 1) {
      const expected = name === 'autostart' ? 'true or false' : 'one string';
      fail(line, `${where}.${name}: expected ${expected}, got ${values.length === 0 ? 'nothing' : `${values.length} values`}`);
    }
    const value = values[0]!;
    if (name === 'autostart') {
      if (typeof value !== 'boolean') fail(line, `${where}.autostart: expected true or false, got ${show(value)}`);
      result.autostart = value as boolean;
      continue;
    }
    if (typeof value !== 'string') fail(line, `${where}.${name}: expected a string, got ${show(value)}`);
    const text = (value as string).trim();
    if (text === '') fail(line, `${where}.${name}: must not be empty`);
    if (name === 'target' && !isHttpUrl(text)) {
      fail(line, `${where}.target: expected an http:// or https:// URL, got ${show(value)}`);
    }
    result.value = text;
  }
  return result;
}
