import {spawnSync} from 'node:child_process';
import {handTerminalOver, type HandOffStreams} from './handOff.js';

/** An incident location `<file>:<line>[:<col>]` taken apart; a bare path has no line. */
export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

export function parseLocation(location: string): SourceLocation | undefined {
  const text = location.trim().replace(/^file:\/\//, '');
  if (!text) return undefined;
  const match = /^(.+?):(\d+)(?::(\d+))?$/.exec(text);
  if (!match) return {file: text};
  return {file: match[1], line: Number(match[2]), ...(match[3] ? {column: Number(match[3])} : {})};
}

// Editors that take `+<line> <file>` (vi and its kin, emacs, nano, micro, kakoune, joe).
const PLUS_LINE = new Set(['vi', 'vim', 'nvim', 'gvim', 'mvim', 'view', 'nvi', 'elvis', 'vis', 'emacs', 'emacsclient', 'nano', 'pico', 'micro', 'kak', 'joe', 'jed', 'mg', 'ne']);
// Editors that take `--goto <file>:<line>:<col>`.
const GOTO = new Set(['code', 'code-insiders', 'codium', 'cursor', 'windsurf']);

/** The editor's program name: the first word of $EDITOR, without its directory. */
function programOf(editor: string): string {
  const first = editor.trim().split(/\s+/)[0] ?? '';
  return first.split('/').pop() ?? first;
}

/** Arguments after $EDITOR that open `location` at its line: `+12 file` for vi-likes, `file:12:3` otherwise. */
export function editorArguments(editor: string, location: SourceLocation): string[] {
  if (location.line === undefined) return [location.file];
  const program = programOf(editor);
  if (PLUS_LINE.has(program)) return [`+${location.line}`, location.file];
  const position = `${location.file}:${location.line}${location.column ? `:${location.column}` : ''}`;
  if (GOTO.has(program)) return ['--goto', position];
  return [position];
}

export type EditorOutcome = {opened: true; editor: string; exitCode: number | null} | {opened: false; reason: string};

/**
 * Opens `location` in $VISUAL or $EDITOR (a shell word list, e.g. `code -w`), in `cwd`, with the
 * terminal handed over while it runs. Without an editor nothing runs and the reason says so.
 */
export function openInEditor(location: string, options: {cwd: string; env?: NodeJS.ProcessEnv; streams: HandOffStreams}): EditorOutcome {
  const env = options.env ?? process.env;
  const editor = (env.VISUAL || env.EDITOR || '').trim();
  const parsed = parseLocation(location);
  if (!parsed) return {opened: false, reason: 'this incident has no location'};
  if (!editor) return {opened: false, reason: `no $EDITOR set: ${location}`};
  const args = editorArguments(editor, parsed);
  const result = handTerminalOver(options.streams, () => spawnSync('/bin/sh', ['-c', `${editor} "$@"`, 'editor', ...args], {cwd: options.cwd, env, stdio: 'inherit'}));
  if (result.error) return {opened: false, reason: `could not start ${editor}: ${result.error.message}`};
  return {opened: true, editor, exitCode: result.status};
}
